export * from './platform-registry';
export * from './providers';
