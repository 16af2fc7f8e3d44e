/** DI tokens of the gateway's infrastructure clients. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const PG_POOL = Symbol('PG_POOL');
export const REDIS = Symbol('REDIS');
