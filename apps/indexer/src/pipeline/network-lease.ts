import type { Network } from '@tokensvc/domain';
import type { SqlTx } from './derivation.port';
import { releaseLease, renewLease, tryAcquireLease } from '../store/lease.repo';
import { LeaseLostError } from './batch-writer';

export interface LeaseLogger {
  log(message: unknown): void;
  warn(message: unknown): void;
}

/**
 * One network's writer lease, as a replica holds it: acquire (waiting while another replica
 * holds it), keep it renewed every third of its TTL by a timer whatever the writer is busy with,
 * notice when someone else took it. Every batch transaction checks it again (fencing).
 */
export class NetworkLease {
  private lost = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly q: SqlTx,
    private readonly network: Network,
    readonly holder: string,
    readonly ttlMs: number,
    private readonly logger: LeaseLogger,
    /** called when the lease turns out to be lost (to wake the writer) */
    private readonly onLost: () => void,
  ) {}

  /** Resolves once held, or when `stopped()` says to give up (then returns false). */
  async acquire(stopped: () => boolean, pause: (ms: number) => Promise<void>): Promise<boolean> {
    let waiting = false;
    while (!stopped()) {
      if (await tryAcquireLease(this.q, this.network, this.holder, this.ttlMs)) {
        this.lost = false;
        if (waiting) this.logger.log({ msg: 'lease acquired', network: this.network });
        this.keep();
        return true;
      }
      if (!waiting) this.logger.log({ msg: 'another replica holds the lease; waiting', network: this.network });
      waiting = true;
      await pause(Math.max(250, Math.floor(this.ttlMs / 3)));
    }
    return false;
  }

  private keep(): void {
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      renewLease(this.q, this.network, this.holder, this.ttlMs).then(
        (held) => {
          if (held) return;
          this.lost = true;
          this.onLost();
        },
        (e: unknown) => this.logger.warn(`${this.network}: lease renewal failed (will retry): ${(e as Error).message}`),
      );
    }, Math.max(100, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  /** Throws LeaseLostError once another replica holds it. */
  check(): void {
    if (this.lost) throw new LeaseLostError(`${this.network}: lease lost to another replica`);
  }

  /** Stops renewing (the lease then expires unless released). */
  pauseRenewal(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  async release(): Promise<void> {
    this.pauseRenewal();
    await releaseLease(this.q, this.network, this.holder).catch(() => undefined);
  }
}
