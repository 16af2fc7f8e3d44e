export * from './env';
export * from './config';
export * from './urls';
export * from './redact-url';
export * from './gateway-access';
export * from './public-urls';
