/**
 * Across's devnet relayer and data worker (libs/devnet tooling), and a private devnet to run them
 * on, for the tests of libraries whose tests may use only the test harness (libs/bridge:
 * type:integration may not depend on type:tooling).
 */
export { AcrossDataWorker, AcrossRelayer, type AcrossNetwork, type DevnetHandle, acrossNetworks, acrossRelayerAccount, fundAcrossRelayer, startDevnet } from '@tokensvc/devnet';
