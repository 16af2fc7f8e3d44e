import type { Pool } from 'pg';
import type { Network } from '@tokensvc/domain';
import { endStalledWriter, LeaseLostError, readLease, releaseLease, renewLease, tryAcquireLease } from '../store/lease.repo';
import { inTransaction, poolQuery } from '../store/sql-tx';

export interface LeaseLogger {
  log(message: unknown): void;
  warn(message: unknown): void;
}

/** Postgres' lock_not_available (lock_timeout) */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * One network's writer lease, as a replica holds it: acquire (waiting while another replica
 * holds it), keep it renewed every third of its TTL by a timer whatever the writer is busy with,
 * notice when someone else took it. Every write transaction checks it again (fenceWriteTx).
 *
 * A standby reads the committed lease row (never waiting for the holder's transactions), sleeps
 * until its expiry by the database's clock (at most a third of the TTL at a time), and takes it
 * the moment it expires. When the expired row is still locked, the holder is stalled inside a
 * write transaction (paused, or cut off without its connection closing): the standby ends that
 * transaction (endStalledWriter), so nothing of it commits, and takes over.
 */
export class NetworkLease {
  private lost = false;
  private heldNow = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly q;

  constructor(
    private readonly pool: Pool,
    private readonly network: Network,
    readonly holder: string,
    readonly ttlMs: number,
    private readonly logger: LeaseLogger,
    /** called when the lease turns out to be lost (to wake the writer) */
    private readonly onLost: () => void,
  ) {
    this.q = poolQuery(pool);
  }

  /** this replica holds the lease (as far as it knows: the write transactions check) */
  get held(): boolean {
    return this.heldNow && !this.lost;
  }

  /**
   * Resolves once held, or when `stopped()` says to give up (then returns false). While another
   * replica holds it, `standby` runs between the checks (errors are the caller's to handle).
   */
  async acquire(
    stopped: () => boolean,
    pause: (ms: number) => Promise<void>,
    standby: () => Promise<void> = async () => undefined,
  ): Promise<boolean> {
    let waiting = false;
    while (!stopped()) {
      const state = await readLease(this.q, this.network);
      if (!state || state.holder === this.holder || state.remainingMs <= 0) {
        if (await this.take(state?.holder)) {
          this.lost = false;
          this.heldNow = true;
          if (waiting) this.logger.log({ msg: 'lease acquired', network: this.network, previousHolder: state?.holder ?? null });
          this.keep();
          return true;
        }
        await pause(10);
        continue;
      }
      if (!waiting) this.logger.log({ msg: 'another replica holds the lease; waiting', network: this.network, holder: state.holder });
      waiting = true;
      await standby();
      // Until it expires (re-read at least three times per TTL: it is renewed meanwhile).
      const left = (await readLease(this.q, this.network))?.remainingMs ?? 0;
      if (left > 0) await pause(Math.min(left + 5, Math.max(100, Math.floor(this.ttlMs / 3))));
    }
    return false;
  }

  /** One attempt at a free, expired or own lease; ends a stalled holder's transaction in the way. */
  private async take(previous: string | undefined): Promise<boolean> {
    try {
      return await inTransaction(this.pool, async (tx) => {
        void tx.query(`SELECT set_config('lock_timeout', $1, true)`, [`${Math.max(100, Math.min(1000, Math.floor(this.ttlMs / 3)))}ms`]);
        return tryAcquireLease(tx, this.network, this.holder, this.ttlMs);
      });
    } catch (e) {
      if ((e as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw e;
      // Expired, yet a transaction holds its row: the holder stopped in the middle of a write.
      const state = await readLease(this.q, this.network);
      if (state && state.holder !== this.holder && state.remainingMs <= 0) {
        const ended = await endStalledWriter(this.q, this.network, state.holder);
        this.logger.warn({
          msg: 'lease expired inside a write transaction of its holder; ended it',
          network: this.network,
          holder: state.holder ?? previous,
          transactions: ended,
        });
      }
      return false;
    }
  }

  private keep(): void {
    clearInterval(this.timer);
    this.timer = setInterval(
      () => {
        renewLease(this.q, this.network, this.holder, this.ttlMs).then(
          (held) => {
            if (held || !this.heldNow || this.lost) return;
            this.lost = true;
            this.logger.warn({ msg: 'lease lost to another replica', network: this.network });
            this.onLost();
          },
          (e: unknown) => this.logger.warn(`${this.network}: lease renewal failed (will retry): ${(e as Error).message}`),
        );
      },
      Math.max(100, Math.floor(this.ttlMs / 3)),
    );
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
    this.heldNow = false;
  }

  async release(): Promise<void> {
    this.pauseRenewal();
    await releaseLease(this.q, this.network, this.holder).catch(() => undefined);
  }
}
