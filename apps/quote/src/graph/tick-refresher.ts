/**
 * PoolStateChanged carries no tick lists, and a V3 Mint/Burn changes ticks anywhere in the range.
 * After a V3 event the pool's initialized ticks are re-read from `pool_ticks` (which the indexer
 * commits before it publishes), coalesced: pools that change while a read runs wait for the next.
 */
import type { Network } from '@tokensvc/domain';
import type { V3Tick } from '@tokensvc/routing';

export type TickReader = (network: Network, pools: readonly string[]) => Promise<Map<string, V3Tick[]>>;
export type TickSink = (network: Network, pool: string, ticks: readonly V3Tick[]) => void;

export class TickRefresher {
  private readonly pending = new Map<Network, Set<string>>();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly read: TickReader,
    private readonly sink: TickSink,
    private readonly onError: (e: unknown) => void,
    private readonly delayMs = 50,
    private readonly retryMs = 1_000,
  ) {}

  schedule(network: Network, pool: string): void {
    let set = this.pending.get(network);
    if (!set) this.pending.set(network, (set = new Set()));
    set.add(pool);
    this.kick(this.delayMs);
  }

  /** Resolves once every scheduled refresh has been applied (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.timer || this.running || this.pending.size > 0) {
      await (this.running ?? new Promise((r) => setTimeout(r, this.delayMs)));
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private kick(delay: number): void {
    if (this.timer || this.running || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.flush().then((failed) => {
        this.running = undefined;
        if (this.pending.size > 0) this.kick(failed ? this.retryMs : this.delayMs);
      });
    }, delay);
  }

  /** true when a read failed (its pools are pending again) */
  private async flush(): Promise<boolean> {
    const batch = [...this.pending];
    this.pending.clear();
    let failed = false;
    for (const [network, pools] of batch) {
      try {
        const ticks = await this.read(network, [...pools]);
        for (const [pool, list] of ticks) this.sink(network, pool, list);
      } catch (e) {
        failed = true;
        this.onError(e);
        const again = this.pending.get(network) ?? new Set<string>();
        for (const p of pools) again.add(p);
        this.pending.set(network, again);
      }
    }
    return failed;
  }
}
