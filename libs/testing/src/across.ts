/**
 * Across's devnet relayer and data worker (libs/devnet tooling), for the tests of libraries whose
 * tests may use only the test harness (libs/bridge: type:integration may not depend on type:tooling).
 */
export { AcrossDataWorker, AcrossRelayer, type AcrossNetwork, acrossNetworks, acrossRelayerAccount, fundAcrossRelayer } from '@tokensvc/devnet';
