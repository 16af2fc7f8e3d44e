/**
 * Across's devnet relayer and data worker (libs/devnet tooling), and a private devnet to run them
 * on (its test accounts and manifest look-ups), for the tests of libraries whose tests may use only
 * the test harness (libs/bridge: type:integration may not depend on type:tooling), and for test
 * fixtures outside test files, which get them from their spec file (apps' testing/ folders).
 */
export {
  AcrossDataWorker,
  AcrossRelayer,
  type AcrossNetwork,
  type DevnetHandle,
  type NetworkManifest,
  TEST_ACCOUNTS,
  acrossNetworks,
  acrossRelayerAccount,
  fundAcrossRelayer,
  manifestToken,
  networkManifest,
  startDevnet,
} from '@tokensvc/devnet';
