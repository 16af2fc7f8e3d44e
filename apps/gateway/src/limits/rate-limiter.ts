import type Redis from 'ioredis';
import type { Surface } from '@tokensvc/api';

/**
 * Sliding-log limiter: one sorted set per subject and surface holds the admission times (Redis
 * clock, microseconds) of the last window. A request is admitted iff fewer than `limit` admissions
 * lie in (now - window, now], so no rolling window ever holds more than `limit` admissions and
 * nothing is refused while the window has room. The check, the monthly quota and the insert run
 * in one Lua script, so concurrent gateways cannot over-admit.
 *
 * KEYS[1] log, KEYS[2] monthly quota counter
 * ARGV[1] window (us), ARGV[2] limit, ARGV[3] quota (0 = none), ARGV[4] unique member, ARGV[5] quota TTL (s)
 * returns { verdict (1 admitted, 0 rate, 2 quota), count in window, oldest score, now, quota used }
 *
 * Times are integers below 2^53, exact as Lua doubles; they are formatted with %.0f because Lua's
 * default number-to-string keeps only 14 digits, which would round a microsecond clock.
 */
const CONSUME = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[1])
local quota = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now - window))
local count = redis.call('ZCARD', KEYS[1])
local used = 0
local verdict = 1
if count >= tonumber(ARGV[2]) then
  verdict = 0
elseif quota > 0 then
  -- count first, undo when over: one call on the common path instead of GET + INCR
  used = redis.call('INCR', KEYS[2])
  if used == 1 then redis.call('EXPIRE', KEYS[2], tonumber(ARGV[5])) end
  if used > quota then
    redis.call('DECR', KEYS[2])
    used = used - 1
    verdict = 2
  end
end
if verdict == 1 then
  redis.call('ZADD', KEYS[1], string.format('%.0f', now), ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000) + 1000)
  count = count + 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return { verdict, count, oldest[2] or now, now, used }
`;

/** Read-only: the current count, for headers on answers that do not consume (403). */
const PEEK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local from = string.format('(%.0f', now - tonumber(ARGV[1]))
local count = redis.call('ZCOUNT', KEYS[1], from, '+inf')
local oldest = redis.call('ZRANGEBYSCORE', KEYS[1], from, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
return { 1, count, oldest[2] or now, now, 0 }
`;

type Reply = [number, number, string | number, number, number];

interface LimiterCommands {
  tsvcConsume(
    log: string,
    quota: string,
    windowUs: number,
    limit: number,
    quotaLimit: number,
    member: string,
    quotaTtl: number,
  ): Promise<Reply>;
  tsvcPeek(log: string, windowUs: number): Promise<Reply>;
}

export type Verdict = 'admitted' | 'rate' | 'quota';

export interface Decision {
  readonly verdict: Verdict;
  readonly limit: number;
  readonly remaining: number;
  /** seconds until the oldest counted request leaves the window (a slot frees up) */
  readonly resetSeconds: number;
  /** the Redis clock at the decision, microseconds since the epoch */
  readonly atMicros: number;
  readonly quota?: { limit: number; used: number };
}

export interface Quota {
  readonly limit: number;
  /** the period the counter belongs to, e.g. 2025-01 */
  readonly period: string;
  readonly ttlSeconds: number;
}

const VERDICTS: Record<number, Verdict> = { 0: 'rate', 1: 'admitted', 2: 'quota' };

/** A budget of its own per subject: the two surfaces, failed API-key and admin-token attempts. */
export type Bucket = Surface | 'auth' | 'admin';

/** A slot taken from a budget, and the way to give it back. */
export interface Reservation {
  readonly decision: Decision;
  /** returns the slot (the attempt turned out not to count), only if it was admitted */
  release(): Promise<void>;
}

export class RateLimiter {
  private seq = 0;
  private readonly tag = `${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  private readonly cmd: LimiterCommands;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly windowMs: number,
  ) {
    redis.defineCommand('tsvcConsume', { numberOfKeys: 2, lua: CONSUME });
    redis.defineCommand('tsvcPeek', { numberOfKeys: 1, lua: PEEK });
    this.cmd = redis as unknown as LimiterCommands;
  }

  /** The hash tag `{subject}` keeps a subject's log and quota in one Redis Cluster slot. */
  private logKey(subject: string, surface: Bucket): string {
    return `${this.prefix}:rl:{${subject}}:${surface}`;
  }

  async consume(subject: string, surface: Surface, limit: number, quota?: Quota): Promise<Decision> {
    const member = `${this.tag}.${(this.seq = (this.seq + 1) % 1e9)}`;
    const quotaKey = `${this.prefix}:quota:{${subject}}:${quota?.period ?? 'none'}`; // read by quotaUsed
    const r = await this.cmd.tsvcConsume(
      this.logKey(subject, surface),
      quotaKey,
      this.windowMs * 1000,
      limit,
      quota?.limit ?? 0,
      member,
      quota?.ttlSeconds ?? 0,
    );
    return this.decision(r, limit, quota);
  }

  /**
   * Takes a slot of `bucket` before the outcome is known, so concurrent attempts cannot all pass a
   * check made before any of them is counted; the caller releases it when the attempt succeeded.
   */
  async reserve(subject: string, bucket: Bucket, limit: number): Promise<Reservation> {
    const member = `${this.tag}.${(this.seq = (this.seq + 1) % 1e9)}`;
    const log = this.logKey(subject, bucket);
    const decision = this.decision(await this.cmd.tsvcConsume(log, `${log}:none`, this.windowMs * 1000, limit, 0, member, 0), limit);
    const admitted = decision.verdict === 'admitted';
    return { decision, release: async () => void (admitted && (await this.redis.zrem(log, member))) };
  }

  /** Calls counted against a subject's monthly quota in `period` (e.g. 2025-01), read only. */
  async quotaUsed(subject: string, period: string): Promise<number> {
    return Number((await this.redis.get(`${this.prefix}:quota:{${subject}}:${period}`)) ?? 0);
  }

  async peek(subject: string, surface: Surface, limit: number): Promise<Decision> {
    return this.decision(await this.cmd.tsvcPeek(this.logKey(subject, surface), this.windowMs * 1000), limit);
  }

  private decision([verdict, count, oldest, now, used]: Reply, limit: number, quota?: Quota): Decision {
    const freesAtUs = Number(oldest) + this.windowMs * 1000;
    return {
      verdict: VERDICTS[verdict] ?? 'rate',
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: count === 0 ? 0 : Math.max(1, Math.ceil((freesAtUs - now) / 1e6)),
      atMicros: now,
      ...(quota ? { quota: { limit: quota.limit, used } } : {}),
    };
  }
}
