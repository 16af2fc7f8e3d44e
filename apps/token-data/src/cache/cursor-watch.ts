/**
 * Polls a fingerprint of the indexer's position (every network's cursor block and hash) and calls
 * `onMove` when it changes: a new block, or a reorg to another block of the same height.
 */
/** `last` after a failed poll: any fingerprint read afterwards counts as a move. */
const UNKNOWN = '\u0000unknown';

export class CursorWatch {
  private last: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly fingerprint: () => Promise<string>,
    private readonly onMove: () => void,
    private readonly onError: (e: unknown) => void,
    private readonly intervalMs: number,
  ) {}

  /** One poll; resolves after `onMove` ran when the cursor moved. */
  async check(): Promise<void> {
    let current: string;
    try {
      current = await this.fingerprint();
    } catch (e) {
      // position unknown: drop what we hold rather than serve it past a block we cannot see
      this.last = UNKNOWN;
      this.onMove();
      this.onError(e);
      return;
    }
    if (current !== this.last) {
      if (this.last !== undefined) this.onMove();
      this.last = current;
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.check().finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
