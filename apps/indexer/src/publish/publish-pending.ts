import type { Pool } from 'pg';
import type { Network } from '@tokensvc/domain';
import { inTransaction, type PoolTableRow } from '@tokensvc/persistence';
import type { PoolStateChanged } from '@tokensvc/messages';
import type { SqlTx } from '../model/sql-tx';
import { markPublished, readCursor } from '../store/cursor.repo';
import { poolQuery } from '../store/sql-tx';
import type { ChainEventPublisher } from './chain-event-publisher';

interface PendingPoolRow extends PoolTableRow {
  change_seq: string;
  restored: boolean;
}

/**
 * Message id of a pool state: `<network>:<pool>:<block>:<log>`; after the network's n-th rollback
 * `:r<n>` is appended (a re-applied state at the same position may differ from the orphaned one
 * still inside the dedup window), and a state restored by a rollback gets `:restored`.
 */
export function poolStateMsgId(
  network: Network,
  pool: string,
  block: number | string,
  log: number,
  reorgEpoch: number,
  restored: boolean,
): string {
  return `${network}:${pool}:${block}:${log}${reorgEpoch > 0 ? `:r${reorgEpoch}` : ''}${restored ? ':restored' : ''}`;
}

/**
 * Publishes what is committed but not yet published: every pool whose change_seq is above the
 * cursor's published_seq (its latest state), then the finalised block if it moved, then the
 * indexed head (IndexedHead: the cursor's block and hash). Everything is read in one snapshot
 * (a read-only REPEATABLE READ transaction), so the pool states sent before the head are exactly
 * the state at that block even while the indexer commits further batches. Marks progress after
 * each page (outside the snapshot), so a crash re-sends at most one page (dropped as duplicates).
 */
export async function publishPending(
  db: Pool,
  publisher: ChainEventPublisher,
  network: Network,
  pageSize = 1000,
): Promise<{ pools: number; finalized: boolean }> {
  return inTransaction(
    db,
    (client) => {
      const snapshot: SqlTx = { query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[] };
      return publishFrom(snapshot, poolQuery(db), publisher, network, pageSize);
    },
    { isolation: 'REPEATABLE READ', readOnly: true },
  );
}

async function publishFrom(
  q: SqlTx,
  writes: SqlTx,
  publisher: ChainEventPublisher,
  network: Network,
  pageSize: number,
): Promise<{ pools: number; finalized: boolean }> {
  const cursor = await readCursor(q, network);
  if (!cursor) return { pools: 0, finalized: false };
  let seq = cursor.publishedSeq;
  let pools = 0;
  for (;;) {
    const rows = await q.query<PendingPoolRow>(
      `SELECT address, platform, family, token0, token1, fee, tick_spacing, reserve0, reserve1, sqrt_price_x96, liquidity, tick, block_number, log_index, change_seq, restored
       FROM pools WHERE network = $1 AND change_seq > $2 ORDER BY change_seq LIMIT $3`,
      [network, seq.toString(), pageSize],
    );
    if (rows.length === 0) break;
    await Promise.all(
      rows.map((r) =>
        publisher.poolState(
          network,
          toMessage(network, r),
          poolStateMsgId(network, r.address, r.block_number, r.log_index, cursor.reorgEpoch, r.restored),
        ),
      ),
    );
    seq = BigInt(rows[rows.length - 1]!.change_seq);
    pools += rows.length;
    await markPublished(writes, network, seq, 0);
  }
  const finalized = cursor.finalizedBlock > cursor.publishedFinalized;
  if (finalized) {
    await publisher.blockFinalized(
      network,
      { network, blockNumber: String(cursor.finalizedBlock), headBlock: String(cursor.blockNumber) },
      `${network}:finalized:${cursor.finalizedBlock}${cursor.reorgEpoch > 0 ? `:r${cursor.reorgEpoch}` : ''}`,
    );
    await markPublished(writes, network, seq, cursor.finalizedBlock);
  }
  if (cursor.blockHash !== '') {
    const head = { network, blockNumber: String(cursor.blockNumber), blockHash: cursor.blockHash, reorgEpoch: cursor.reorgEpoch };
    await publisher.indexedHead(network, head, `${network}:head:${cursor.blockNumber}:${cursor.blockHash}:r${cursor.reorgEpoch}`);
  }
  return { pools, finalized };
}

function toMessage(network: Network, r: PendingPoolRow): PoolStateChanged {
  return {
    network,
    pool: r.address,
    platform: r.platform,
    family: r.family,
    token0: r.token0,
    token1: r.token1,
    fee: r.fee,
    tickSpacing: r.tick_spacing ?? 0,
    reserve0: r.reserve0,
    reserve1: r.reserve1,
    sqrtPriceX96: r.sqrt_price_x96 ?? '',
    liquidity: r.liquidity ?? '',
    tick: r.tick ?? 0,
    blockNumber: r.block_number,
    logIndex: r.log_index,
    restored: r.restored,
  };
}
