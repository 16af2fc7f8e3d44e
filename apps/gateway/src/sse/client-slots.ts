/** Open streams per client (API key, or client IP without one) and in all, on this gateway. */
export class ClientSlots {
  private readonly open = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly perClient: number,
    private readonly max: number,
  ) {}

  /** A release function, or a message saying which bound was hit. */
  take(client: string): { release: () => void } | { refused: string } {
    const mine = this.open.get(client) ?? 0;
    if (mine >= this.perClient)
      return { refused: `too many open status streams for this client: at most ${this.perClient} at once; close one first` };
    if (this.total >= this.max) return { refused: `this gateway has ${this.max} status streams open, its maximum; retry shortly` };
    this.open.set(client, mine + 1);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const n = (this.open.get(client) ?? 1) - 1;
        if (n <= 0) this.open.delete(client);
        else this.open.set(client, n);
      },
    };
  }

  get size(): number {
    return this.total;
  }
}
