export * from './types';
export { BRIDGE_TOPICS, bridgeEscrowInterface, bridgeRequestId, bridgeSettlerInterface } from './abi';
export * from './bridge';
/** Two private anvils with the bridge deployed on both: the fixture of bridge tests in other libs too. */
export { type Actor as BridgeActor, type BridgeChain, type BridgeWorld, bridgeRevertOf, sendOk, sendReverts, startBridgeWorld } from './testing/bridge-world';
