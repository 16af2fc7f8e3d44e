export * from './infra-urls';
export * from './database';
export * from './devnet-env';
