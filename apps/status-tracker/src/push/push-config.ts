/**
 * Settings of push delivery (the status outbox relay and webhooks), read once at boot next to
 * the tracker's own (TRACKER_*). Host lists are comma-separated patterns: `hooks.example.com`
 * (that host), `*.example.com` (any subdomain, not the apex), `*` (any host); IP literals as
 * written in a URL (`127.0.0.1`, `[::1]`).
 */
import { EnvReader, type Env } from '@tokensvc/config';
import { STREAMS } from '@tokensvc/messages';

export interface PushConfig {
  /** STATUS_EVENTS_STREAM: the JetStream stream of status events (the gateway reads the same) */
  readonly eventsStream: string;
  /** STATUS_EVENTS_PREFIX: subject prefix of the status events */
  readonly eventsPrefix: string;
  /** STATUS_RELAY_POLL_MS: the outbox is looked at this often besides its NOTIFY */
  readonly relayPollMs: number;
  /** WEBHOOK_ALLOWED_HOSTS: hosts a webhook URL may name (empty: registration refused) */
  readonly allowedHosts: readonly string[];
  /** WEBHOOK_ALLOW_HTTP_HOSTS: hosts that may be reached over plain http (default none: https only) */
  readonly httpHosts: readonly string[];
  /** WEBHOOK_ALLOW_PRIVATE_HOSTS: hosts that may resolve to private, loopback or link-local addresses (default none; tests) */
  readonly privateHosts: readonly string[];
  /** WEBHOOK_MAX_ATTEMPTS: delivery attempts of one event before the webhook is given up */
  readonly maxAttempts: number;
  /** WEBHOOK_BACKOFF_MS: first retry delay; doubled at each attempt */
  readonly backoffMs: number;
  /** WEBHOOK_TIMEOUT_MS: connect + response headers, per attempt */
  readonly timeoutMs: number;
  /** WEBHOOK_MAX_PER_ORDER: webhooks one order may have (over all its transactions and owners) */
  readonly maxPerOrder: number;
  /** WEBHOOK_CONCURRENCY: deliveries in flight per replica */
  readonly concurrency: number;
  /** WEBHOOK_SWEEP_MS: webhooks behind their order are re-queued this often */
  readonly sweepMs: number;
}

const hosts = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

export function loadPushConfig(env: Env): PushConfig {
  const r = new EnvReader(env);
  const cfg: PushConfig = {
    eventsStream: r.string('STATUS_EVENTS_STREAM', STREAMS.crossChainStatus.name),
    eventsPrefix: r.string('STATUS_EVENTS_PREFIX', 'cross-chain-status'),
    relayPollMs: r.int('STATUS_RELAY_POLL_MS', 1_000, 10, 60_000),
    allowedHosts: hosts(r.optional('WEBHOOK_ALLOWED_HOSTS')),
    httpHosts: hosts(r.optional('WEBHOOK_ALLOW_HTTP_HOSTS')),
    privateHosts: hosts(r.optional('WEBHOOK_ALLOW_PRIVATE_HOSTS')),
    maxAttempts: r.int('WEBHOOK_MAX_ATTEMPTS', 8, 1, 100),
    backoffMs: r.int('WEBHOOK_BACKOFF_MS', 30_000, 10, 3_600_000),
    timeoutMs: r.int('WEBHOOK_TIMEOUT_MS', 5_000, 100, 60_000),
    maxPerOrder: r.int('WEBHOOK_MAX_PER_ORDER', 10, 1, 1_000),
    concurrency: r.int('WEBHOOK_CONCURRENCY', 50, 1, 1_000),
    sweepMs: r.int('WEBHOOK_SWEEP_MS', 10_000, 100, 3_600_000),
  };
  for (const h of [...cfg.allowedHosts, ...cfg.httpHosts, ...cfg.privateHosts]) {
    if (!/^(\*|(\*\.)?[a-z0-9._-]+|\[[0-9a-f:.]+\])$/.test(h))
      r.problems.push(`WEBHOOK_*_HOSTS: "${h}" is not a host pattern (host, *.domain, *, or an IP literal; [::1] for IPv6)`);
  }
  if (!/^[A-Za-z0-9_-]+$/.test(cfg.eventsStream))
    r.problems.push(`STATUS_EVENTS_STREAM must be letters, digits, "_" or "-", got "${cfg.eventsStream}"`);
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(cfg.eventsPrefix))
    r.problems.push(`STATUS_EVENTS_PREFIX must be NATS subject tokens, got "${cfg.eventsPrefix}"`);
  r.done();
  return cfg;
}
