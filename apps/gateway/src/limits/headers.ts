import type { FastifyReply } from 'fastify';
import type { Decision } from './rate-limiter';

/** The spec's rate-limit headers, on every answer of a limited route that has a caller. */
export function setRateHeaders(reply: FastifyReply, d: Decision, windowSeconds: number): void {
  void reply.headers({
    'ratelimit-limit': d.limit,
    'ratelimit-remaining': d.remaining,
    'ratelimit-reset': d.resetSeconds,
    'ratelimit-policy': `${d.limit};w=${windowSeconds}`,
  });
}

/** Seconds until the start of the next UTC month (when monthly quotas reset), and that instant. */
export function nextMonth(now = new Date()): { seconds: number; at: Date; period: string } {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { seconds: Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000)), at, period: now.toISOString().slice(0, 7) };
}
