export * from './logger';
export * from './rpc-client';
export * from './rpc-handler';
export * from './reply-body';
export * from './health-server';
export * from './microservice';
export * from './ping.controller';
export * from './nats-permissions';
