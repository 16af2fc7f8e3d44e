export * from './platform-registry';
export * from './providers';
export * from './nest/chain-providers';
