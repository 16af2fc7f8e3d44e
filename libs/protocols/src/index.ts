export * from './protocol-module';
export * from './actions';
export { PROTOCOLS, protocolOf, dexOf, dexFacet, issuerFacet, shapeOf, tokenRoleOf, type DexFamily, type TokenRole } from './registry';
export { v3RouterOf, v3RouterMissingMessage, type V3Router } from './uniswap-v3';
