/**
 * Settings of the status stream (GET /v3/portal/status/stream), read once at boot by main.ts
 * (tests pass their own through GatewayOptions.sse).
 */
import { EnvReader, type Env } from '@tokensvc/config';
import { STREAMS } from '@tokensvc/messages';

export interface SseSettings {
  /** STATUS_EVENTS_STREAM / STATUS_EVENTS_PREFIX: where the status tracker publishes (same names as its settings) */
  readonly stream: string;
  readonly prefix: string;
  /** SSE_HEARTBEAT_MS: a comment line this often keeps proxies from closing an idle stream */
  readonly heartbeatMs: number;
  /** SSE_RESYNC_MS: each stream re-reads the recorded events this often (a safety net under the JetStream feed) */
  readonly resyncMs: number;
  /** SSE_MAX_STREAMS_PER_CLIENT: open streams per API key, or per client IP without one, per gateway */
  readonly maxPerClient: number;
  /** SSE_MAX_STREAMS: open streams per gateway */
  readonly maxTotal: number;
}

export const DEFAULT_SSE_SETTINGS: SseSettings = {
  stream: STREAMS.crossChainStatus.name,
  prefix: 'cross-chain-status',
  heartbeatMs: 15_000,
  resyncMs: 60_000,
  maxPerClient: 20,
  maxTotal: 10_000,
};

export function loadSseSettings(env: Env): SseSettings {
  const r = new EnvReader(env);
  const d = DEFAULT_SSE_SETTINGS;
  const s: SseSettings = {
    stream: r.string('STATUS_EVENTS_STREAM', d.stream),
    prefix: r.string('STATUS_EVENTS_PREFIX', d.prefix),
    heartbeatMs: r.int('SSE_HEARTBEAT_MS', d.heartbeatMs, 100, 600_000),
    resyncMs: r.int('SSE_RESYNC_MS', d.resyncMs, 100, 3_600_000),
    maxPerClient: r.int('SSE_MAX_STREAMS_PER_CLIENT', d.maxPerClient, 1, 100_000),
    maxTotal: r.int('SSE_MAX_STREAMS', d.maxTotal, 1, 1_000_000),
  };
  r.done();
  return s;
}
