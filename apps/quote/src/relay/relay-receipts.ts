/**
 * What a mined transaction means for its order (executed, reverted and why, cancelled or expired)
 * and the relaying state the API shows. The receipt and any revert reason are read from the chain
 * first; the outcome is then recorded in one statement that only applies to a still pending order.
 */
import { Interface, Transaction } from 'ethers';
import { routerInterface } from '@tokensvc/contracts';
import type { RelayState } from '@tokensvc/messages';
import { simulateTx } from '../chain/simulate';
import type { OrderStore, StoredOrder } from './order-store';
import type { RelayRecords } from './relay-records';
import { NATIVE, type Receipt, type RelayNetwork, type SubmissionRow, type TxRow } from './relay-types';

const SIGNED_ORDER_EXECUTED = routerInterface().getEvent('SignedOrderExecuted')!.topicHash;
const ERC20 = new Interface(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const TRANSFER = ERC20.getEvent('Transfer')!.topicHash;

export type Outcome = Parameters<RelayRecords['finish']>[1];

/** The final state of `sub` given the receipt of one of its transactions, `tx`. */
export async function outcomeOf(net: RelayNetwork, store: OrderStore, sub: SubmissionRow, tx: TxRow, receipt: Receipt): Promise<Outcome> {
  const ok = receipt.status === '0x1';
  const base = { txHash: receipt.transactionHash, block: BigInt(receipt.blockNumber), gasUsed: BigInt(receipt.gasUsed) };
  if (tx.kind === 'cancel') {
    // A cancellation after a failed re-simulation carries its reason; otherwise the deadline passed.
    if (sub.status_reason) return { ...base, state: 'reverted', reason: sub.status_reason };
    return {
      ...base,
      state: 'expired',
      reason:
        'the order was not mined before its deadline; the relayer freed its nonce with a 0-value transaction and the order did not execute',
    };
  }
  if (!ok) return { ...base, state: 'reverted', reason: await revertReason(net, Transaction.from(tx.raw)) };
  const executed = receipt.logs.some((l) => l.address.toLowerCase() === net.router && l.topics[0] === SIGNED_ORDER_EXECUTED);
  const order = await store.find(sub.order_id);
  const value = (order?.reply.signedOrder?.value ?? {}) as Record<string, string>;
  const outputToken = String(value['outputToken'] ?? '').toLowerCase();
  const recipient = String(value['recipient'] ?? '').toLowerCase();
  let received = 0n;
  for (const l of receipt.logs) {
    if (l.address.toLowerCase() !== outputToken || l.topics[0] !== TRANSFER) continue;
    const t = ERC20.parseLog(l)!;
    if (String(t.args[1]).toLowerCase() === recipient) received += t.args[2] as bigint;
  }
  return {
    ...base,
    state: executed ? 'mined' : 'reverted',
    reason: executed ? undefined : 'mined without executing the order',
    received: outputToken === NATIVE ? undefined : received,
  };
}

/** Why a mined transaction reverted, by running it again on the state after its block (close enough to name the cause). */
async function revertReason(net: RelayNetwork, tx: Transaction): Promise<string> {
  const sim = await simulateTx(net.rpc, { from: tx.from!, to: tx.to!, data: tx.data, value: 0n }).catch(() => undefined);
  return sim && !sim.ok ? `execution reverted: ${sim.message}` : 'execution reverted';
}

export function relayState(order: StoredOrder, sub: SubmissionRow | undefined, txs: TxRow[]): RelayState {
  if (!sub) {
    const expired = Date.now() >= order.expiresAt.getTime();
    return {
      status: expired ? 'expired' : 'quoted',
      statusReason: expired ? `the quote expired at ${order.expiresAt.toISOString()} without being submitted; get a new quote` : undefined,
      txHashes: [],
    };
  }
  const status = sub.state === 'dropped' ? 'reverted' : sub.state;
  return {
    status,
    statusReason: sub.status_reason ?? undefined,
    txHash: sub.mined_tx_hash ?? txs.at(-1)?.tx_hash,
    txHashes: txs.map((t) => t.tx_hash),
    blockNumber: sub.block_number ?? undefined,
    gasUsed: sub.gas_used ?? undefined,
    receivedAmount: sub.output_amount ?? undefined,
    relayer: sub.relayer,
  };
}
