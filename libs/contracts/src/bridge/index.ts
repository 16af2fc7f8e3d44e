export * from './types';
export { BRIDGE_TOPICS, bridgeEscrowInterface, bridgeRequestId, bridgeSettlerInterface } from './abi';
export * from './bridge';
