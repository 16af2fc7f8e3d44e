/**
 * The write side of the status outbox: called by CrossChainOrderStore inside the transaction of a
 * transition (after its guarded UPDATE ... RETURNING, which bumped `event_seq`), it appends the
 * event with the full record as GET /v3/portal/status would answer right after it, and NOTIFYs
 * the relay (delivered at commit, never for a rolled-back transition).
 */
import type { PoolClient } from 'pg';
import type { Network } from '@tokensvc/domain';
import { CrossChainStatusReply } from '@tokensvc/messages';
import type { CrossChainOrder, StoredQuote } from './cross-chain-order';
import { statusReply } from './status-record';

export const STATUS_EVENTS_CHANNEL = 'status_events';

export async function appendStatusEvent(client: PoolClient, row: CrossChainOrder): Promise<void> {
  const { rows } = await client.query<{ network: string; chain_id: number; context: unknown; tx: unknown }>(
    `SELECT network, chain_id, context, tx FROM orders WHERE order_id = $1 AND keep_until > now()`,
    [row.orderId],
  );
  const q = rows[0];
  const quote: StoredQuote | undefined = q && { network: q.network as Network, chainId: q.chain_id, context: q.context, tx: q.tx };
  const record = CrossChainStatusReply.toJSON(statusReply(row, quote));
  await client.query(`INSERT INTO status_events (order_id, tx_hash, seq, status, record) VALUES ($1, $2, $3, $4, $5)`, [
    row.orderId,
    row.txHash,
    row.eventSeq,
    row.status,
    record,
  ]);
  await client.query(`SELECT pg_notify($1, '')`, [STATUS_EVENTS_CHANNEL]);
}
