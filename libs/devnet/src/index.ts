export {
  startDevnet,
  resetDevnet,
  DEFAULT_STATE_DIR,
  DEFAULT_BASE_PORT,
  type StartDevnetOptions,
  type DevnetHandle,
  type DevnetChain,
} from './devnet';
export { TEST_ACCOUNTS, ANVIL_ACCOUNTS, DEFAULT_SEED, deriveAccount, type DevAccount } from './accounts';
export { DEFAULT_NETWORKS } from './config';
export * from './manifest';
export { codeVersion } from './version';
export { killOnExit, startAnvil, type AnvilOptions, type AnvilProcess } from './anvil';
export { LIVE_DIR, liveStateFile, forgetLiveStates } from './live-state';
export * from './mainnet-shaped/profile';
export { ORIGINS as MAINNET_SHAPED_ORIGINS } from './mainnet-shaped/book';
export type { Placement } from './mainnet-shaped/place';
// Across on the devnet (issue 19): the relayer and data worker are devnet tooling (type:tooling,
// so only tests and tools can import them, never an app's production code).
export { AcrossRelayer, type AcrossRelayerMode, type AcrossRelayerOptions, type AcrossFillRecord } from './across/relayer';
export { AcrossDataWorker, type AcrossDataWorkerOptions, type BundleResult, type BundlePayment } from './across/dataworker';
export { acrossRelayerAccount, fundAcrossRelayer } from './across/inventory';
export {
  acrossNetworks,
  toBytes32,
  fromBytes32,
  spokePoolInterface,
  multicallHandlerInterface,
  type AcrossNetwork,
  type AcrossDeposit,
} from './across/spoke';
export { loadAcrossArtifact, acrossHubPool, ACROSS_SPOKE_POOL } from './deploy/across';
