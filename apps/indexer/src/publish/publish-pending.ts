import type { Network } from '@tokensvc/domain';
import type { PoolTableRow } from '@tokensvc/persistence';
import type { PoolStateChanged } from '@tokensvc/messages';
import type { SqlTx } from '../pipeline/derivation.port';
import { markPublished, readCursor } from '../store/cursor.repo';
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
export function poolStateMsgId(network: Network, pool: string, block: number | string, log: number, reorgEpoch: number, restored: boolean): string {
  return `${network}:${pool}:${block}:${log}${reorgEpoch > 0 ? `:r${reorgEpoch}` : ''}${restored ? ':restored' : ''}`;
}

/**
 * Publishes what is committed but not yet published: every pool whose change_seq is above the
 * cursor's published_seq (its latest state), then the finalised block if it moved. Marks
 * progress after each page, so a crash re-sends at most one page (dropped as duplicates).
 */
export async function publishPending(q: SqlTx, publisher: ChainEventPublisher, network: Network, pageSize = 1000): Promise<{ pools: number; finalized: boolean }> {
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
    await Promise.all(rows.map((r) => publisher.poolState(network, toMessage(network, r), poolStateMsgId(network, r.address, r.block_number, r.log_index, cursor.reorgEpoch, r.restored))));
    seq = BigInt(rows[rows.length - 1]!.change_seq);
    pools += rows.length;
    await markPublished(q, network, seq, 0);
  }
  const finalized = cursor.finalizedBlock > cursor.publishedFinalized;
  if (finalized) {
    await publisher.blockFinalized(network, { network, blockNumber: String(cursor.finalizedBlock), headBlock: String(cursor.blockNumber) }, `${network}:finalized:${cursor.finalizedBlock}${cursor.reorgEpoch > 0 ? `:r${cursor.reorgEpoch}` : ''}`);
    await markPublished(q, network, seq, cursor.finalizedBlock);
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
