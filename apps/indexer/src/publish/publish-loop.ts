import type { Pool } from 'pg';
import type { Network } from '@tokensvc/domain';
import { METRICS } from '../metrics';
import type { IndexerLogger } from '../model/indexer-logger';
import type { ChainEventPublisher } from './chain-event-publisher';
import { publishPending } from './publish-pending';

/**
 * Runs publishPending for a network after each commit, one run at a time per network (kicks
 * during a run coalesce into one more run). A failed run is retried on the next kick or after a
 * short delay; nothing is lost because progress lives in the cursor row.
 */
export class PublishLoop {
  private readonly busy = new Map<Network, Promise<void>>();
  private readonly again = new Set<Network>();
  private readonly retryTimers = new Map<Network, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly publisher: ChainEventPublisher,
    private readonly logger: IndexerLogger,
  ) {}

  kick(network: Network): void {
    if (this.closed) return;
    if (this.busy.has(network)) {
      this.again.add(network);
      return;
    }
    const run = this.runOnce(network).finally(() => {
      this.busy.delete(network);
      if (this.again.delete(network)) this.kick(network);
    });
    this.busy.set(network, run);
  }

  private async runOnce(network: Network): Promise<void> {
    try {
      const { pools, finalized } = await publishPending(this.pool, this.publisher, network);
      if (pools > 0) METRICS.published.inc({ network, kind: 'pool-state' }, pools);
      if (finalized) METRICS.published.inc({ network, kind: 'block-finalized' });
    } catch (e) {
      if (this.closed) return;
      this.logger.warn(`${network}: publishing chain events failed (will retry): ${(e as Error).message}`);
      if (!this.retryTimers.has(network)) {
        const t = setTimeout(() => {
          this.retryTimers.delete(network);
          this.kick(network);
        }, 2000);
        t.unref();
        this.retryTimers.set(network, t);
      }
    }
  }

  /** Waits for runs in flight (used on shutdown and by tests). */
  async idle(): Promise<void> {
    while (this.busy.size > 0) await Promise.all([...this.busy.values()]);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.retryTimers.values()) clearTimeout(t);
    await this.idle();
  }
}
