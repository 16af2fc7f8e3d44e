import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { registerRpcMetrics } from './rpc-metrics';

export type ReadinessCheck = () => Promise<boolean>;

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  timestamp: string;
  checks: Record<string, 'up' | 'down'>;
  /** the replica's phase (health side door only) */
  phase?: ReplicaPhase;
}

/**
 * Where a replica is in its life: `starting` until it joined its NATS queue group (its readiness
 * checks passed first), `serving` while in it, `draining` from SIGTERM on (left the group,
 * finishing what it took). Only a serving replica is ready.
 */
export type ReplicaPhase = 'starting' | 'serving' | 'draining';

export async function runChecks(checks: Record<string, ReadinessCheck>, timeoutMs = 2000): Promise<ReadinessReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      const ok = await Promise.race([
        check().catch(() => false),
        new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs).unref()),
      ]);
      return [name, ok ? 'up' : 'down'] as const;
    }),
  );
  const out = Object.fromEntries(entries);
  return { status: entries.every(([, s]) => s === 'up') ? 'ok' : 'unavailable', timestamp: new Date().toISOString(), checks: out };
}

/**
 * The small HTTP side door of a NATS microservice, for Kubernetes probes and scraping (port 0
 * disables it): /health/live (the process answers: restart it when not), /health/ready (serving
 * in its queue group and its dependencies up: send it work), /health/caught-up (ready, and its
 * data current: the indexer's backfill done; the same as ready for the other services) and
 * Prometheus /metrics.
 */
export class HealthServer {
  readonly registry = new Registry();
  private server: Server | undefined;
  /** a service's own JSON read-outs on the side door (the indexer's /status) */
  private readonly extra = new Map<string, () => unknown>();

  /** starting / serving / draining; a side door of its own (no queue group) is serving from the start */
  phase: ReplicaPhase = 'serving';

  constructor(
    private readonly service: string,
    private readonly checks: Record<string, ReadinessCheck>,
    private readonly caughtUp: Record<string, ReadinessCheck> = {},
  ) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    // every NATS handler's rate, errors and duration (rpc-handler.ts)
    registerRpcMetrics(this.registry);
  }

  /** Serves `handler()`'s value as JSON at GET `path` (200; 500 with the message if it throws). */
  addJsonRoute(path: string, handler: () => unknown): void {
    this.extra.set(path, handler);
  }

  /** Called with what a JSON route threw (the reply says only that it failed). */
  onRouteError: (path: string, error: unknown) => void = () => undefined;

  /** Loopback unless `host` opens it (HEALTH_HOST, e.g. 0.0.0.0 for a cluster's probes). */
  async listen(port: number, host = '127.0.0.1'): Promise<number | undefined> {
    if (port === 0) return undefined;
    this.server = createServer((req, res) => {
      void this.route(req.url ?? '/').then(([status, type, body]) => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(port, host, () => resolve());
    });
    return port;
  }

  private async route(url: string): Promise<[number, string, string]> {
    const path = url.split('?')[0];
    if (path === '/health' || path === '/health/live')
      return [200, 'application/json', JSON.stringify({ status: 'ok', service: this.service, timestamp: new Date().toISOString() })];
    if (path === '/health/ready' || path === '/health/caught-up') {
      const report = {
        ...(await runChecks(path === '/health/ready' ? this.checks : { ...this.checks, ...this.caughtUp })),
        phase: this.phase,
      };
      if (this.phase !== 'serving') report.status = 'unavailable';
      return [report.status === 'ok' ? 200 : 503, 'application/json', JSON.stringify(report)];
    }
    if (path === '/metrics') return [200, this.registry.contentType, await this.registry.metrics()];
    const extra = this.extra.get(path ?? '');
    if (extra) {
      try {
        return [200, 'application/json', JSON.stringify(await extra())];
      } catch (e) {
        // The message stays in the log: an error from a driver or a client can quote a URL with its credentials.
        this.onRouteError(path ?? '', e);
        return [
          500,
          'application/json',
          JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: `${path} is not available; see the service log` }),
        ];
      }
    }
    return [
      404,
      'application/json',
      JSON.stringify({
        statusCode: 404,
        error: 'Not Found',
        message: `no route ${path}; try ${['/health', '/health/live', '/health/ready', '/health/caught-up', '/metrics', ...this.extra.keys()].join(', ')}`,
      }),
    ];
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }
}
