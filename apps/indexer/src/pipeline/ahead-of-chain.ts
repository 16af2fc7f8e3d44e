import type { Network } from '@tokensvc/domain';
import { METRICS } from '../metrics';
import type { IndexerLogger } from '../model/indexer-logger';
import type { SqlTx } from '../model/sql-tx';
import { FallbackNodes } from '../reorg/chain-behind';
import { markAheadOfChain, type Cursor } from '../store/cursor.repo';

/**
 * Whether the indexed data holds blocks the node's chain does not have (found below the cursor,
 * not rolled back yet): what the API serves for the network is then not the chain's current state.
 * Kept in memory (indexer readiness), in the metric, and in index_cursors (the gateway's readiness).
 */
export class AheadOfChain {
  private ahead = false;
  /** the main node was found behind the cursor while a fallback URL had the cursor's block (logged once) */
  private nodeBehind = false;
  private readonly fallbacks: FallbackNodes;

  constructor(
    private readonly q: SqlTx,
    private readonly network: Network,
    fallbackUrls: readonly string[],
    rpcTimeoutMs: number,
    private readonly logger: IndexerLogger,
  ) {
    this.fallbacks = new FallbackNodes(fallbackUrls, rpcTimeoutMs);
  }

  get value(): boolean {
    return this.ahead;
  }

  /** The main node's head is at or above the cursor again. */
  nodeCaughtUp(): void {
    this.nodeBehind = false;
  }

  /**
   * The main node's head is below the cursor. True when the indexed data is ahead of the chain
   * (no fallback URL has the cursor's block): the flag is then set until the rollback.
   * False when a fallback URL vouches for the cursor (the main node is only behind) or nothing
   * is indexed yet.
   */
  async check(cursor: Cursor, head: number): Promise<boolean> {
    if (cursor.blockHash === '') return false;
    const vouching = this.fallbacks.size > 0 ? await this.fallbacks.vouchFor(cursor) : undefined;
    if (vouching !== undefined) {
      if (!this.nodeBehind)
        this.logger.warn({
          msg: 'RPC node behind the cursor; another URL has the cursor block, waiting',
          network: this.network,
          head,
          cursor: cursor.blockNumber,
          fallback: vouching,
        });
      this.nodeBehind = true;
      await this.set(false);
      return false;
    }
    await this.set(true);
    this.logger.warn({ msg: 'chain below the indexed data; rolling back now', network: this.network, head, cursor: cursor.blockNumber });
    return true;
  }

  /** In index_cursors too (the gateway's readiness reads it there), before the rollback starts. */
  async set(ahead: boolean): Promise<void> {
    if (ahead !== this.ahead) await markAheadOfChain(this.q, this.network, ahead);
    this.show(ahead);
  }

  /** The flag in memory (indexer readiness) and the metric; the row was written with the cursor. */
  show(ahead: boolean): void {
    this.ahead = ahead;
    METRICS.aheadOfChain.set({ network: this.network }, ahead ? 1 : 0);
  }
}
