export * from './spoke-pool-abi';
export * from './spoke-pool-events';
