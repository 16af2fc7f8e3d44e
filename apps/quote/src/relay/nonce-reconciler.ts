/**
 * Brings the relayer's stored nonce back to the chain when the chain lost transactions the relayer
 * had recorded (a devnet reloaded at an earlier state, a failover to a node that was resynced):
 * otherwise every new transaction takes a nonce above the chain's and waits in the node's queue
 * for ever behind the gap.
 *
 * The chain is read before the transaction that locks the `relayer_nonces` row (`observeChain`),
 * never under it: a slow or hanging node must not hold the lock every submission waits for. Then,
 * with the row locked, for the nonces from the chain's count up:
 * - a submission already final (mined, reverted, ...) whose transaction is no longer on chain is
 *   opened again: its stored transactions are sent again (after a re-simulation, like any other
 *   broadcast), so it executes on this chain exactly once or ends in a clear state (its signature
 *   nonce used, its deadline passed, the sender's tokens gone);
 * - a nonce no submission holds (used outside the relayer before the loss) would stay a gap: it is
 *   filled with a 0-value transaction to the relayer itself;
 * - the stored next nonce goes back to just above the highest nonce still held.
 * Nothing changes while every nonce between the chain's count and the stored one belongs to a
 * pending submission (transactions in flight, not a gap), nor when the rows changed between the
 * observation and the lock (the question is left for the next reconciliation).
 */
import type { PoolClient } from 'pg';
import type { RelayNetwork } from './relay-types';

type Queryable = Pick<PoolClient, 'query'>;

interface NonceRow {
  order_id: string;
  nonce: string;
  state: string;
}

/** What the chain said, read with no transaction open. */
export interface ChainView {
  /** the relayer's mined transaction count */
  count: bigint;
  /**
   * when the stored nonce was above the count and not every nonce in between was pending: the
   * submissions from the count up (read after it) and the count read again after them
   */
  above?: { rows: NonceRow[]; again: bigint };
}

export interface Reconciled {
  /** the next nonce to take */
  next: bigint;
  /** orders opened again (to queue for tracking) */
  reopened: string[];
  /** nonces no submission holds, to fill with 0-value transactions */
  holes: bigint[];
}

const minedCount = async (net: RelayNetwork, relayer: string): Promise<bigint> =>
  BigInt(await net.rpc.call<string>('eth_getTransactionCount', [relayer, 'latest']));

async function rowsFrom(db: Queryable, network: string, relayer: string, from: bigint): Promise<NonceRow[]> {
  const { rows } = await db.query<NonceRow>(
    `SELECT order_id, nonce, state FROM relay_submissions WHERE network = $1 AND relayer = $2 AND nonce >= $3 ORDER BY nonce`,
    [network, relayer, from.toString()],
  );
  return rows;
}

const allPending = (rows: readonly NonceRow[], stored: bigint, chain: bigint): boolean =>
  rows.filter((r) => r.state === 'pending').length === Number(stored - chain);
const key = (rows: readonly NonceRow[]): string => rows.map((r) => `${r.order_id}:${r.nonce}:${r.state}`).join(',');

/**
 * Reads the chain's count (and, when a gap may exist, the rows and the count again) with no
 * transaction open: `db` is the pool, each statement its own.
 */
export async function observeChain(db: Queryable, net: RelayNetwork, relayer: string): Promise<ChainView> {
  const count = await minedCount(net, relayer);
  const { rows: s } = await db.query<{ next_nonce: string }>(`SELECT next_nonce FROM relayer_nonces WHERE network = $1 AND relayer = $2`, [
    net.network,
    relayer,
  ]);
  const stored = s[0] ? BigInt(s[0].next_nonce) : 0n;
  if (stored <= count) return { count };
  const rows = await rowsFrom(db, net.network, relayer, count);
  if (allPending(rows, stored, count)) return { count };
  // A transaction mined (and its order recorded final) between the count and the rows would look
  // lost: the count read again settles it.
  return { count, above: { rows, again: await minedCount(net, relayer) } };
}

/** With the `relayer_nonces` row locked by the caller (`stored` its value): no RPC here, only `seen`. */
export async function reconcileLocked(
  client: Queryable,
  net: Pick<RelayNetwork, 'network'>,
  relayer: string,
  stored: bigint,
  seen: ChainView,
): Promise<Reconciled> {
  const chain = seen.count;
  if (stored <= chain) return { next: chain, reopened: [], holes: [] };
  const rows = await rowsFrom(client, net.network, relayer, chain);
  if (allPending(rows, stored, chain)) return { next: stored, reopened: [], holes: [] };
  // Not observed (other nonces were taken since), the chain moved while it was read, or the rows
  // changed since: nothing is touched, the gap question is left for next time.
  if (!seen.above || key(rows) !== key(seen.above.rows)) return { next: stored, reopened: [], holes: [] };
  if (seen.above.again !== chain) return { next: seen.above.again > stored ? seen.above.again : stored, reopened: [], holes: [] };

  const reopened = rows.filter((r) => r.state !== 'pending').map((r) => r.order_id);
  if (reopened.length > 0) {
    // A transaction recorded after the one that was mined shares its nonce and was never mined
    // anywhere (a replacement a second worker signed as the first one's landed): the mined one is
    // what this chain lost, so it is the newest again and the one sent again.
    await client.query(
      `DELETE FROM relay_transactions t USING relay_submissions s, relay_transactions m
       WHERE s.order_id = ANY($1::uuid[]) AND t.order_id = s.order_id AND m.tx_hash = s.mined_tx_hash AND m.order_id = s.order_id AND t.attempt > m.attempt`,
      [reopened],
    );
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
  await client.query(`UPDATE relayer_nonces SET next_nonce = $3 WHERE network = $1 AND relayer = $2`, [
    net.network,
    relayer,
    top.toString(),
  ]);
  return { next: top, reopened, holes };
}

/** 0-value transactions to the relayer itself at `holes`, so no nonce stays a gap. */
export async function fillHoles(net: RelayNetwork, holes: readonly bigint[], fees: { maxFee: bigint; priority: bigint }): Promise<void> {
  for (const nonce of holes) {
    const raw = await net.wallet.signTransaction({
      type: 2,
      chainId: net.chainId,
      nonce: Number(nonce),
      to: net.wallet.address,
      data: '0x',
      value: 0n,
      gasLimit: 21_000n,
      maxFeePerGas: fees.maxFee,
      maxPriorityFeePerGas: fees.priority,
    });
    // "already known" / "nonce too low": filled meanwhile, which is all that matters.
    await net.rpc.call<string>('eth_sendRawTransaction', [raw]).catch(() => undefined);
  }
}
