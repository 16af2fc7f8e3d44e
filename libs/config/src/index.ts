export * from './env';
export * from './config';
export * from './urls';
export * from './gateway-access';
