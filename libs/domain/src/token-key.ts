import { isNetwork, type Network } from './networks';

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** A token key `<network>:<address>`, always lowercase. */
export type TokenKey = `${Network}:0x${string}`;

export interface TokenId {
  readonly network: Network;
  /** lowercase 0x-prefixed address; the zero address is the native token */
  readonly address: string;
}

export class InvalidTokenKeyError extends Error {
  constructor(
    readonly input: string,
    reason: string,
  ) {
    super(
      `invalid token key "${input}": ${reason}; expected <network>:<0x address>, e.g. ethereum:0x0000000000000000000000000000000000000000`,
    );
  }
}

export function isAddress(value: unknown): value is string {
  return typeof value === 'string' && ADDRESS_RE.test(value);
}

export function normaliseAddress(value: string): string {
  if (!isAddress(value)) throw new Error(`invalid address "${value}": expected 0x followed by 40 hex characters`);
  return value.toLowerCase();
}

/** Parses any-case input into a normalised token id; throws InvalidTokenKeyError with a reason. */
export function parseTokenKey(input: string): TokenId {
  const trimmed = input.trim();
  const sep = trimmed.indexOf(':');
  if (sep < 0) throw new InvalidTokenKeyError(input, 'missing ":" between network and address');
  const network = trimmed.slice(0, sep).toLowerCase();
  const address = trimmed.slice(sep + 1);
  if (!isNetwork(network)) throw new InvalidTokenKeyError(input, `unknown network "${network}"`);
  if (!isAddress(address)) throw new InvalidTokenKeyError(input, 'address must be 0x followed by 40 hex characters');
  return { network, address: address.toLowerCase() };
}

export function tokenKey(network: Network, address: string): TokenKey {
  return `${network}:${normaliseAddress(address)}` as TokenKey;
}

export function normaliseTokenKey(input: string): TokenKey {
  const { network, address } = parseTokenKey(input);
  return tokenKey(network, address);
}

export function isNativeAddress(address: string): boolean {
  return address.toLowerCase() === ZERO_ADDRESS;
}

export function nativeTokenKey(network: Network): TokenKey {
  return tokenKey(network, ZERO_ADDRESS);
}
