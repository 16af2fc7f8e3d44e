import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Lets the CPU phases of the write path (the batch Postgres is waiting for: deriving it, building
 * its COPY payloads) go first. Node runs everything on one thread; without this, decoding the
 * next batch and parsing read-ahead responses interleave with those phases and Postgres idles
 * until they are done. Background loops wait at their next time slice while the gate is held.
 */
export class CpuGate {
  private holders = 0;
  private waiters: Array<() => void> = [];

  async hold<T>(fn: () => Promise<T>): Promise<T> {
    this.holders++;
    try {
      return await fn();
    } finally {
      if (--this.holders === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves once nobody holds the gate. */
  async idle(): Promise<void> {
    while (this.holders > 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

/**
 * Cooperative time slicing for the long CPU loops of a batch (decoding 100k logs, building COPY
 * payloads, deriving blocks). While a loop runs nothing else does: the previous batch's COPY
 * stalls once the socket buffer is full, and the next statement is only sent when the loop ends,
 * so Postgres would sit idle. Handing the event loop a turn every few milliseconds keeps Postgres
 * (and the RPC reads) busy in parallel. With a gate, the loop is background work and also waits
 * while the write path holds the gate.
 */
export class TimeSlice {
  private started = performance.now();

  constructor(
    private readonly gate?: CpuGate,
    private readonly sliceMs = 8,
  ) {}

  /** Yields to the event loop when the current slice is used up (call every few hundred items). */
  async maybeYield(): Promise<void> {
    if (performance.now() - this.started < this.sliceMs) return;
    await nextTurn();
    if (this.gate) await this.gate.idle();
    this.started = performance.now();
  }
}

/** Items per time check in tight loops (performance.now() is cheap, but not free). */
export const SLICE_CHECK_EVERY = 512;
