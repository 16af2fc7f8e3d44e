/**
 * A bounded map of replies: least recently used entries go first when full, entries older than
 * `ttlMs` are misses, and `clear()` drops everything (a new block). Only settled values are stored;
 * concurrent misses of one key share the pending promise, so a burst costs one computation.
 */
export class ReplyLru<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly pending = new Map<string, Promise<V>>();
  private generation = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** `seen` learns what the lookup found: a fresh entry (hit), nothing (miss), or the key's computation in flight (joined). */
  async getOrCompute(
    key: string,
    compute: () => Promise<V>,
    seen: (result: 'hit' | 'miss' | 'joined') => void = () => undefined,
  ): Promise<V> {
    if (this.maxEntries <= 0) {
      seen('miss');
      return compute();
    }
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at <= this.ttlMs) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      seen('hit');
      return hit.value;
    }
    if (hit) this.entries.delete(key);
    const inFlight = this.pending.get(key);
    seen(inFlight ? 'joined' : 'miss');
    if (inFlight) return inFlight;
    const generation = this.generation;
    const at = this.now();
    const promise = compute().then((value) => {
      // a block arrived while this was computed: the value may be stale, do not keep it
      if (generation === this.generation) this.store(key, value, at);
      return value;
    });
    this.pending.set(key, promise);
    try {
      return await promise;
    } finally {
      if (this.pending.get(key) === promise) this.pending.delete(key);
    }
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
  }

  private store(key: string, value: V, at: number): void {
    this.entries.set(key, { value, at });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
