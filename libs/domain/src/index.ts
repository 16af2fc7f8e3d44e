export * from './networks';
export * from './token-key';
export * from './amount';
export * from './platforms';
export * from './order-request';
export * from './chain-log';
export * from './metrics';
