export * from './protocol-module';
export { PROTOCOLS, protocolOf, dexOf, dexFacet } from './registry';
export { v3RouterOf, v3RouterMissingMessage, type V3Router } from './uniswap-v3';
