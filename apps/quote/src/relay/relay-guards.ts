/**
 * What keeps a sender from making the relayer pay for nothing:
 * - every order transaction is simulated again right before it is broadcast (first send,
 *   re-broadcast, fee bump): between the acceptance and the block, the sender can spend its
 *   signature nonce, move its tokens or revoke the approval, and a mined revert costs the relayer
 *   the whole gas with no fee in return;
 * - no order transaction bids more per gas than a multiple of what the order's relayer fee pays
 *   for, so a quote kept pending for its whole validity cannot be bumped into a loss without end.
 */
import type { Transaction } from 'ethers';
import type { SignedRouterOrder } from '@tokensvc/contracts';
import type { Network } from '@tokensvc/domain';
import { simulateTx } from '../chain/simulate';
import type { RelayNetwork } from './relay-types';

export type Recheck = { ok: true; gas: bigint } | { ok: false; reason: string };

const NATIVE = '0x0000000000000000000000000000000000000000';

/**
 * Runs a signed order transaction again on the latest block. A revert is `ok: false`; an RPC
 * failure that is not a revert (timeout, rate limit) throws, so nothing is sent or given up on it.
 */
export async function recheckOrderTx(net: RelayNetwork, tx: Transaction): Promise<Recheck> {
  const sim = await simulateTx(net.rpc, { from: net.wallet.address.toLowerCase(), to: tx.to!, data: tx.data, value: 0n });
  if (sim.ok) return { ok: true, gas: sim.gas };
  if (!sim.error && !/revert|out of gas|gas required exceeds/i.test(sim.message))
    throw new Error(`re-simulating the order transaction: ${sim.message}`);
  return { ok: false, reason: sim.message };
}

/** Why an accepted order is not sent after all (statusReason while its nonce is freed, then the final one). */
export function notSentReason(simulation: string): string {
  return `not sent: the order would now revert on-chain (${simulation}); the sender's balance, allowance or signature nonce changed after it was accepted, so the relayer did not broadcast it and freed its nonce with a 0-value transaction instead`;
}

/**
 * The highest maxFeePerGas an order transaction with `gasLimit` may bid: `multiplier` times the
 * gas price at which the order's relayer fee pays for that gas limit (at current USD prices), so
 * the worst case costs the relayer at most `multiplier` times the fee it is paid. Undefined when
 * a price is missing (the caller then does not bump).
 */
export function feeCeilingPerGas(
  network: Network,
  signed: Pick<SignedRouterOrder, 'inputToken' | 'relayerFee'>,
  gasLimit: bigint,
  multiplier: number,
  token: (network: Network, address: string) => { priceUsd: number; decimals: number } | undefined,
): bigint | undefined {
  const native = token(network, NATIVE);
  const input = token(network, signed.inputToken.toLowerCase());
  if (!native || !input || native.priceUsd <= 0 || input.priceUsd <= 0 || gasLimit <= 0n) return undefined;
  const feeWei = (Number(signed.relayerFee) / 10 ** input.decimals) * (input.priceUsd / native.priceUsd) * 1e18;
  return BigInt(Math.floor((feeWei * multiplier) / Number(gasLimit)));
}
