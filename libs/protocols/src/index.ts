export * from './protocol-module';
export * from './actions';
export { PROTOCOLS, protocolOf, dexOf, dexFacet, issuerFacet } from './registry';
export { v3RouterOf, v3RouterMissingMessage, type V3Router } from './uniswap-v3';
