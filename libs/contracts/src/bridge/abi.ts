import { AbiCoder, Interface, getAddress, id, keccak256 } from 'ethers';
import { loadArtifact } from '../local-artifacts';

let escrowIface: Interface | undefined;
let settlerIface: Interface | undefined;

/** ABI of BridgeEscrow, from the compiled artifact (compiled on first use when sources changed). */
export function bridgeEscrowInterface(): Interface {
  escrowIface ??= new Interface(loadArtifact('BridgeEscrow').abi);
  return escrowIface;
}

export function bridgeSettlerInterface(): Interface {
  settlerIface ??= new Interface(loadArtifact('BridgeSettler').abi);
  return settlerIface;
}

/**
 * topics[0] of the bridge events, for eth_getLogs filters. Plain constants so that a log watcher
 * needs no compiler; bridge.spec.ts checks them against the compiled ABI.
 */
export const BRIDGE_TOPICS = {
  /** BridgeEscrow; topics[1] requestId, [2] depositor, [3] destinationChainId */
  depositCreated: id('DepositCreated(bytes32,address,address,uint256,uint256,address,uint256,address,uint256,address)'),
  /** BridgeEscrow; topics[1] requestId, [2] filler */
  depositSettled: id('DepositSettled(bytes32,address,bytes32)'),
  /** BridgeEscrow; topics[1] requestId, [2] refundTo */
  depositRefunded: id('DepositRefunded(bytes32,address,address,uint256)'),
  /** BridgeEscrow; topics[1] previous, [2] new attester */
  attesterChanged: id('AttesterChanged(address,address)'),
  /** BridgeSettler; topics[1] originChainId, [2] requestId, [3] filler */
  filled: id('Filled(uint256,bytes32,address,address,address,uint256)'),
} as const;

/** The request id BridgeEscrow gives its `nonce`-th deposit: keccak256(abi.encode(chainid, escrow, nonce)). */
export function bridgeRequestId(chainId: bigint | number, escrow: string, nonce: bigint | number): string {
  return keccak256(AbiCoder.defaultAbiCoder().encode(['uint256', 'address', 'uint256'], [chainId, getAddress(escrow), nonce]));
}
