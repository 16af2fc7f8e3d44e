export * from './protocol-module';
export { v2Fee } from './uniswap-v2/scope';
export * from './actions';
export {
  PROTOCOLS,
  checkPlatformOptions,
  protocolOf,
  dexOf,
  dexFacet,
  issuerFacet,
  composedActionFacet,
  shapeOf,
  tokenRoleOf,
  LIVE_BALANCE_FAMILIES,
  type TokenRole,
} from './registry';
export { v3RouterOf, v3RouterMissingMessage, type V3Router } from './uniswap-v3';
export * from './indexing/events';
export * from './indexing/registry-types';
export * from './indexing/port';
export { roleAddress, roleList, underlyingToken } from './indexing/adapter-helpers';
export { TOPICS } from './topics';
export { topicOf, eventTopics } from './indexing/event-topic';
export { type BootstrapPool, type ScopeSnapshot, type ScopeReadContext, type ContractRead } from './indexing/scope-read';
export { MAX_BITMAP_WORDS, bitmapWords, V3_FEE_TIERS } from './uniswap-v3/scope';
