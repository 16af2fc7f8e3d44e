/**
 * Brings the relayer's stored nonce back to the chain when the chain lost transactions the relayer
 * had recorded (a devnet reloaded at an earlier state, a failover to a node that was resynced):
 * otherwise every new transaction takes a nonce above the chain's and waits in the node's queue
 * for ever behind the gap.
 *
 * With the `relayer_nonces` row locked by the caller, for the nonces from the chain's count up:
 * - a submission already final (mined, reverted, ...) whose transaction is no longer on chain is
 *   opened again: its stored transactions are sent again (after a re-simulation, like any other
 *   broadcast), so it executes on this chain exactly once or ends in a clear state (its signature
 *   nonce used, its deadline passed, the sender's tokens gone);
 * - a nonce no submission holds (used outside the relayer before the loss) would stay a gap: it is
 *   filled with a 0-value transaction to the relayer itself;
 * - the stored next nonce goes back to just above the highest nonce still held.
 * Nothing changes while every nonce between the chain's count and the stored one belongs to a
 * pending submission (transactions in flight, not a gap).
 */
import type { PoolClient } from 'pg';
import type { RelayNetwork } from './relayer';

export interface Reconciled {
  /** the next nonce to take */
  next: bigint;
  /** orders opened again (to queue for tracking) */
  reopened: string[];
  /** nonces no submission holds, to fill with 0-value transactions */
  holes: bigint[];
}

export async function reconcileLocked(client: Pick<PoolClient, 'query'>, net: RelayNetwork, relayer: string, stored: bigint): Promise<Reconciled> {
  const chain = BigInt(await net.rpc.call<string>('eth_getTransactionCount', [relayer, 'latest']));
  if (stored <= chain) return { next: chain, reopened: [], holes: [] };
  const { rows } = await client.query<{ order_id: string; nonce: string; state: string }>(
    `SELECT order_id, nonce, state FROM relay_submissions WHERE network = $1 AND relayer = $2 AND nonce >= $3 ORDER BY nonce`,
    [net.network, relayer, chain.toString()],
  );
  const pending = rows.filter((r) => r.state === 'pending').length;
  if (pending === Number(stored - chain)) return { next: stored, reopened: [], holes: [] };
  // A transaction mined (and its order recorded final) between the count and the rows would look
  // lost: the count read again settles it, and a moved chain leaves the gap question for next time.
  const again = BigInt(await net.rpc.call<string>('eth_getTransactionCount', [relayer, 'latest']));
  if (again !== chain) return { next: again > stored ? again : stored, reopened: [], holes: [] };

  const reopened = rows.filter((r) => r.state !== 'pending').map((r) => r.order_id);
  if (reopened.length > 0) {
    await client.query(
      `UPDATE relay_submissions SET state = 'pending', status_reason = NULL, mined_tx_hash = NULL, block_number = NULL, gas_used = NULL, output_amount = NULL, updated_at = now()
       WHERE order_id = ANY($1::uuid[])`,
      [reopened],
    );
    // Not sent on this chain: the tracker sends them again before it waits for a replacement.
    await client.query(`UPDATE relay_transactions SET broadcast_at = NULL WHERE order_id = ANY($1::uuid[])`, [reopened]);
  }
  const held = new Set(rows.map((r) => BigInt(r.nonce)));
  const top = rows.length > 0 ? BigInt(rows.at(-1)!.nonce) + 1n : chain;
  const holes: bigint[] = [];
  for (let n = chain; n < top; n++) if (!held.has(n)) holes.push(n);
  await client.query(`UPDATE relayer_nonces SET next_nonce = $3 WHERE network = $1 AND relayer = $2`, [net.network, relayer, top.toString()]);
  return { next: top, reopened, holes };
}

/** 0-value transactions to the relayer itself at `holes`, so no nonce stays a gap. */
export async function fillHoles(net: RelayNetwork, holes: readonly bigint[], fees: { maxFee: bigint; priority: bigint }): Promise<void> {
  for (const nonce of holes) {
    const raw = await net.wallet.signTransaction({ type: 2, chainId: net.chainId, nonce: Number(nonce), to: net.wallet.address, data: '0x', value: 0n, gasLimit: 21_000n, maxFeePerGas: fees.maxFee, maxPriorityFeePerGas: fees.priority });
    // "already known" / "nonce too low": filled meanwhile, which is all that matters.
    await net.rpc.call<string>('eth_sendRawTransaction', [raw]).catch(() => undefined);
  }
}
