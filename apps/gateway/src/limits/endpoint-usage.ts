import type Redis from 'ioredis';

/** Calls of one key per endpoint: today (UTC day) and this month (UTC month). */
export interface EndpointCounts {
  readonly today: Readonly<Record<string, number>>;
  readonly month: Readonly<Record<string, number>>;
}

/** per-day hashes are kept a little over a day, per-month hashes a little over a month */
const DAY_TTL_S = 2 * 86_400;
const MONTH_TTL_S = 40 * 86_400;

/**
 * Admitted calls per key and endpoint (`GET /v2/tokens`), counted in memory and added to two Redis
 * hashes per key (the UTC day's and the UTC month's) every `flushMs`, so counting costs no Redis
 * round trip per request; every gateway replica adds its own counts. A failed write keeps the
 * counts for the next attempt. The console's usage view reads them (GET /v3/portal/usage).
 */
export class EndpointUsage {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly flushMs: number,
    private readonly onError: (e: unknown) => void,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /** `route`: the method and the route template, e.g. `GET /v2/tokens` */
  count(keyId: string, route: string, at: number = Date.now()): void {
    const id = `${keyId}\n${new Date(at).toISOString().slice(0, 10)}\n${route}`;
    this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
  }

  private hash(keyId: string, period: string): string {
    return `${this.prefix}:usage:{key:${keyId}}:${period}`;
  }

  /** Writes what is pending; concurrent calls share one write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const multi = this.redis.pipeline();
    for (const [id, n] of batch) {
      const [keyId, day, route] = id.split('\n') as [string, string, string];
      const daily = this.hash(keyId, day);
      const monthly = this.hash(keyId, day.slice(0, 7));
      multi.hincrby(daily, route, n).expire(daily, DAY_TTL_S).hincrby(monthly, route, n).expire(monthly, MONTH_TTL_S);
    }
    try {
      const results = (await multi.exec()) ?? [];
      const failed = results.find(([e]) => e);
      if (failed) throw failed[0];
    } catch (e) {
      // Counts are kept for the next flush; a partly applied pipeline may count a few calls twice.
      for (const [id, n] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + n);
      this.onError(e);
    }
  }

  /** This replica's pending counts are written first, so a key sees its own last call. */
  async read(keyId: string, at: number = Date.now()): Promise<EndpointCounts> {
    await this.flush();
    const day = new Date(at).toISOString().slice(0, 10);
    const [today, month] = await Promise.all([
      this.redis.hgetall(this.hash(keyId, day)),
      this.redis.hgetall(this.hash(keyId, day.slice(0, 7))),
    ]);
    const numbers = (h: Record<string, string>): Record<string, number> =>
      Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Number(v)]));
    return { today: numbers(today), month: numbers(month) };
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
