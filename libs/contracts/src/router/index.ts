export * from './types';
export { CALLS_ABI_TYPE, executorInterface, routerInterface, routeHash } from './abi';
export * from './router';
export * from './signed-order';
export * from './calls';
export * from './deterministic';
