export { startDevnet, resetDevnet, DEFAULT_STATE_DIR, DEFAULT_BASE_PORT, type StartDevnetOptions, type DevnetHandle, type DevnetChain } from './devnet';
export { TEST_ACCOUNTS, ANVIL_ACCOUNTS, DEFAULT_SEED, deriveAccount, type DevAccount } from './accounts';
export { DEFAULT_NETWORKS } from './config';
export * from './manifest';
export { codeVersion } from './version';
export { startAnvil, type AnvilOptions, type AnvilProcess } from './anvil';
export { LIVE_DIR, liveStateFile, forgetLiveStates } from './live-state';
export * from './mainnet-shaped/profile';
