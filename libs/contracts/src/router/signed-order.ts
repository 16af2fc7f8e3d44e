import { type TypedDataDomain, type TypedDataField, TypedDataEncoder, getAddress } from 'ethers';
import type { SignedRouterOrder } from './types';

export const ROUTER_EIP712_NAME = 'TokensvcRouter';
export const ROUTER_EIP712_VERSION = '1';

/** EIP-712 types of Router.SIGNED_ORDER_TYPEHASH (field order matters). */
export const SIGNED_ORDER_TYPES: Record<string, TypedDataField[]> = {
  SignedOrder: [
    { name: 'sender', type: 'address' },
    { name: 'inputToken', type: 'address' },
    { name: 'inputAmount', type: 'uint256' },
    { name: 'outputToken', type: 'address' },
    { name: 'minOutputAmount', type: 'uint256' },
    { name: 'recipient', type: 'address' },
    { name: 'partner', type: 'address' },
    { name: 'feeBps', type: 'uint16' },
    { name: 'relayerFee', type: 'uint256' },
    { name: 'submitter', type: 'address' },
    { name: 'routeHash', type: 'bytes32' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
};

/** The domain binds a signature to one chain and one router deployment. */
export function signedOrderDomain(chainId: number | bigint, router: string): TypedDataDomain {
  return { name: ROUTER_EIP712_NAME, version: ROUTER_EIP712_VERSION, chainId: BigInt(chainId), verifyingContract: getAddress(router) };
}

export interface SignedOrderTypedData {
  domain: TypedDataDomain;
  types: Record<string, TypedDataField[]>;
  value: SignedRouterOrder;
}

/** What a wallet signs (ethers `signTypedData(domain, types, value)`; the spec's `signedOrder`). */
export function signedOrderTypedData(chainId: number | bigint, router: string, order: SignedRouterOrder): SignedOrderTypedData {
  return { domain: signedOrderDomain(chainId, router), types: SIGNED_ORDER_TYPES, value: order };
}

/** The digest Router.hashSignedOrder returns for the same order. */
export function signedOrderDigest(chainId: number | bigint, router: string, order: SignedRouterOrder): string {
  return TypedDataEncoder.hash(signedOrderDomain(chainId, router), SIGNED_ORDER_TYPES, order);
}
