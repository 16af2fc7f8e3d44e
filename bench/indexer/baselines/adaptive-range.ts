/**
 * Hands out consecutive block ranges sized so a response holds about `targetLogs` logs: after each
 * response the next width follows the observed density (at most doubling or halving per step).
 */
export class AdaptiveRange {
  private cursor: number;
  private width: number;

  constructor(
    from: number,
    private readonly to: number,
    initialWidth: number,
    private readonly targetLogs = 20_000,
    private readonly maxWidth = 10_000,
  ) {
    this.cursor = from;
    this.width = Math.max(1, Math.min(initialWidth, maxWidth));
  }

  get currentWidth(): number {
    return this.width;
  }

  next(): [number, number] | undefined {
    if (this.cursor > this.to) return undefined;
    const span: [number, number] = [this.cursor, Math.min(this.to, this.cursor + this.width - 1)];
    this.cursor = span[1] + 1;
    return span;
  }

  observe(span: [number, number], logs: number): void {
    const width = span[1] - span[0] + 1;
    const ideal = logs === 0 ? width * 2 : (width * this.targetLogs) / logs;
    this.width = Math.round(Math.max(1, Math.min(this.maxWidth, Math.min(this.width * 2, Math.max(this.width / 2, ideal)))));
  }
}
