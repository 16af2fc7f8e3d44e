/**
 * TESTS ONLY (`@tokensvc/contracts/testing`, an entry point of its own so production code never
 * loads it): the Router's anvil fixture, for the protocol modules' integration tests of their calls.
 */
export { FAR_DEADLINE, type RouterWorld, eachTestOnRouterWorld, startRouterWorld } from './router/testing/router-world';
export { revertOf, send, sendRaw } from './router/testing/reverts';
