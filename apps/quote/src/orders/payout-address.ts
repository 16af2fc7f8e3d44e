/**
 * Who a cross-chain order pays on the output network: the sender, or the `recipient` given (this
 * service's addition to the interface). The bridge pays that address on the other network, and
 * nothing guarantees that an address which is a contract here (a smart-contract wallet, a
 * multisig) exists there, or has the same owners: a payout to it can be lost. So a contract is
 * accepted only when the same code stands at the address on the output network. An externally
 * owned account is the same account on every network (its key), and so is an EIP-7702-delegated
 * account (its code is a pointer to a delegate, the key still controls it).
 */
import type { Network } from '@tokensvc/domain';
import { badRequest } from './request-parsing';

/** EIP-7702 delegation designator: 0xef0100 followed by the delegate's address. */
const DELEGATION = /^0xef0100[0-9a-f]{40}$/;

/** An account's code as read from the chain: undefined for an externally owned (or delegated) account. */
export function contractCode(code: string): string | undefined {
  const c = code.toLowerCase();
  if (c === '0x' || c === '0x0' || c === '' || DELEGATION.test(c)) return undefined;
  return c;
}

export type CodeReader = (network: Network, address: string) => Promise<string>;

/**
 * Throws a 400 when `address` is a contract on `origin` without the same code on `destination`.
 * `role` names the parameter the address came from, for the message.
 */
export async function checkPayoutAddress(
  readCode: CodeReader,
  o: { origin: Network; destination: Network; address: string; role: 'sender' | 'recipient' },
): Promise<void> {
  const [here, there] = await Promise.all([readCode(o.origin, o.address), readCode(o.destination, o.address)]);
  const originCode = contractCode(here);
  if (originCode === undefined) return;
  if (contractCode(there) === originCode) return;
  const what = contractCode(there) === undefined ? 'no contract' : 'different code';
  const fix =
    o.role === 'sender'
      ? `give a recipient you control on ${o.destination} (recipient=<address>), or send from an account that exists on both networks`
      : `give a recipient you control on ${o.destination}: an externally owned account, or a contract with the same code on both networks`;
  throw badRequest(
    `${o.role} ${o.address} is a contract on ${o.origin} with ${what} at that address on ${o.destination}: the bridge would pay it there, where it may not exist or have the same owners, and the funds could be lost; ${fix}`,
  );
}
