/**
 * Test helper for the replica tests (rollout, replica loss): the gateway and any number of
 * replicas of the services as processes (startApp) on a private nats-server, over a database
 * the test makes (`prepare`: migrated, read models seeded from a devnet, no indexer), and a load
 * loop through the gateway that counts every answer by status.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { networkManifest, type DevnetManifest, type NetworkManifest } from '@tokensvc/devnet';
import { INFRA } from './infra-urls';
import { PrivateNatsServer, freePort } from './nats-server';
import { startApp, stopProcess, waitForHttp, type AppName, type AppProcess, type PlatformEnv } from './processes';

export interface Replica extends AppProcess {
  label: string;
  healthPort: number;
  lines: string[];
}

export interface ReplicaPlatformOptions {
  natsRequestTimeoutMs: number;
  extraEnv?: Record<string, string>;
  /** makes the database: its URL, an API key, more variables for the apps and what to undo at the end (drop it) */
  prepare: (p: {
    natsUrl: string;
    net: NetworkManifest;
  }) => Promise<{ databaseUrl: string; apiKey?: string; env: Record<string, string>; cleanup(): Promise<void> }>;
}

/**
 * Made at once, filled by `init` (a private NATS, the prepared database; no app yet; ethereum
 * only), so `dispose` in afterAll undoes whatever was started even when init did not finish.
 */
export class ReplicaPlatform {
  readonly replicas: Replica[] = [];
  /** every app's log lines, for failure messages */
  readonly lines: string[] = [];
  readonly net: NetworkManifest;
  env!: PlatformEnv;
  /** a key for the data endpoints, from `prepare` */
  apiKey: string | undefined;
  private nats: PrivateNatsServer | undefined;
  private cleanup: (() => Promise<void>) | undefined;
  private disposed = false;

  constructor(
    private readonly label: string,
    private readonly devnet: { rpcUrls: PlatformEnv['rpcUrls']; manifestPath: string },
  ) {
    this.net = networkManifest(JSON.parse(readFileSync(devnet.manifestPath, 'utf8')) as DevnetManifest, 'ethereum');
  }

  get base(): string {
    return `http://127.0.0.1:${this.env.gatewayPort}`;
  }

  get databaseUrl(): string {
    return this.env.databaseUrl;
  }

  async init(opts: ReplicaPlatformOptions): Promise<this> {
    const nats = new PrivateNatsServer(await freePort());
    this.nats = nats;
    await nats.start();
    const prepared = await opts.prepare({ natsUrl: nats.url, net: this.net });
    this.cleanup = () => prepared.cleanup();
    this.apiKey = prepared.apiKey;
    this.env = {
      databaseUrl: prepared.databaseUrl,
      natsUrl: nats.url,
      redisUrl: INFRA.redis,
      rpcUrls: { ethereum: this.devnet.rpcUrls['ethereum']! },
      manifestPath: this.devnet.manifestPath,
      gatewayPort: await freePort(),
      natsRequestTimeoutMs: opts.natsRequestTimeoutMs,
      logLevel: 'warn',
      extraEnv: {
        ...prepared.env,
        RELAY_QUEUE_PREFIX: `${this.label}${Date.now().toString(36)}`,
        // the load loop is many anonymous callers behind one proxy (X-Forwarded-For)
        TRUSTED_PROXIES: '127.0.0.1',
        ...opts.extraEnv,
      },
    };
    return this;
  }

  /** Starts one process of `app` on its own health port (the gateway on the platform's port), with `env` on top. */
  async start(app: AppName, label: string = app, env: Record<string, string> = {}): Promise<Replica> {
    if (this.disposed) throw new Error('the platform is disposed');
    const healthPort = await freePort();
    const lines: string[] = [];
    const p = startApp(app, { ...this.env, extraEnv: { ...this.env.extraEnv, HEALTH_PORT: String(healthPort), ...env } }, (_name, line) => {
      lines.push(line);
      this.lines.push(`[${label}] ${line}`);
    });
    const replica: Replica = { ...p, label, healthPort, lines };
    this.replicas.push(replica);
    return replica;
  }

  /** Waits until the replica's /health/ready (the gateway's) answers 200. */
  async ready(r: Replica, timeoutMs = 45_000): Promise<void> {
    const url = r.name === 'gateway' ? `${this.base}/health/ready` : `http://127.0.0.1:${r.healthPort}/health/ready`;
    await waitForHttp(url, timeoutMs).catch((e: unknown) => {
      throw new Error(`${r.label}: ${(e as Error).message}\n${r.lines.slice(-30).join('\n')}`);
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all(this.replicas.map((r) => stopProcess(r)));
    await this.cleanup?.();
    await this.nats?.dispose();
  }
}

export interface LoadResult {
  /** requests sent; `total` of them answered so far */
  started: number;
  total: number;
  byStatus: Record<string, number>;
  /** the non-2xx answers (status, path and body start), at most 20 */
  failures: string[];
  maxMs: number;
}

/**
 * `workers` loops of GET requests through the gateway until `stop()`, each request from one of
 * 200 client addresses (X-Forwarded-For, so the per-address trading limit is never the cause of a
 * non-2xx), bounded by `maxRequests` in all. `live` counts as it goes; a transport error counts as
 * status "error".
 */
export function startLoad(
  base: string,
  paths: readonly string[],
  workers: number,
  opts: { apiKey?: string; maxRequests?: number } = {},
): { live: LoadResult; stop(): Promise<LoadResult> } {
  const live: LoadResult = { started: 0, total: 0, byStatus: {}, failures: [], maxMs: 0 };
  let done = false;
  const prefix = `10.${randomInt(1, 250)}.${randomInt(0, 250)}`;
  let n = 0;
  const worker = async (w: number): Promise<void> => {
    while (!done && live.started < (opts.maxRequests ?? 5000)) {
      const i = n++;
      live.started++;
      const path = paths[i % paths.length]!;
      const t = Date.now();
      let status = 'error';
      let body = '';
      try {
        const res = await fetch(`${base}${path}`, {
          headers: {
            'x-forwarded-for': `${prefix}.${(i % 200) + 1}`,
            'x-request-id': `load-${w}-${randomBytes(4).toString('hex')}`,
            ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
          },
          signal: AbortSignal.timeout(60_000),
        });
        body = await res.text();
        status = String(res.status);
      } catch (e) {
        body = (e as Error).message;
      }
      live.total++;
      live.maxMs = Math.max(live.maxMs, Date.now() - t);
      live.byStatus[status] = (live.byStatus[status] ?? 0) + 1;
      if (!/^2\d\d$/.test(status) && live.failures.length < 20) live.failures.push(`${status} ${path} ${body.slice(0, 200)}`);
    }
  };
  const running = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return {
    live,
    stop: async () => {
      done = true;
      await running;
      return live;
    },
  };
}

/** Polls `url` every 50 ms until it answers 200; resolves with every distinct answer seen before ("status phase"). */
export async function readinessSeen(url: string, timeoutMs = 60_000): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    let answer = 'not listening';
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return seen;
      answer = `${res.status} ${((await res.json()) as { phase?: string }).phase ?? ''}`.trim();
    } catch {
      // not listening yet
    }
    if (seen[seen.length - 1] !== answer) seen.push(answer);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (seen: ${seen.join(', ')})`);
}
