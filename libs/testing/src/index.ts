export * from './infra-urls';
export * from './database';
export * from './devnet-env';
export * from './processes';
export * from './nats-server';
export * from './net';
export * from './filler-process';
export * from './pg-overlap';
