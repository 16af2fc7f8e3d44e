import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import type { Pool } from 'pg';
import type { Tier } from '@tokensvc/api';
import { loadGatewayConfig } from '@tokensvc/config';
import { ErrorCode, isRpcErrorPayload, type RpcContract } from '@tokensvc/messages';
import { ApiKeysRepository, createPgPool, dropDatabase, migrate, type ApiKeyRecord } from '@tokensvc/persistence';
import type Redis from 'ioredis';
import { adminServer, createGateway } from '../src/bootstrap';
import { REDIS } from '../src/infra/tokens';
import type { GatewayOptions } from '../src/gateway-options';

/** Where the harness finds real Postgres, Redis and NATS (tests pass `@tokensvc/testing` values in). */
export interface HarnessInfra {
  /** a fresh database URL for this gateway (created, migrated, dropped by the harness) */
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly natsUrl: string;
}

export interface HarnessSetup {
  readonly infra: HarnessInfra;
  readonly options?: Partial<GatewayOptions>;
  readonly env?: Record<string, string>;
  /** listen on a port (contract tests over HTTP) or not (inject only) */
  readonly listen?: boolean;
}

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** One request of the harness: an API key (as a Bearer or a bare header), headers, a JSON body. */
export interface HarnessRequest {
  readonly method?: string;
  readonly key?: string;
  readonly form?: 'bearer' | 'bare';
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

/** A running gateway on real infrastructure, with a key repository to issue keys directly. */
export class GatewayHarness {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly baseUrl: string,
    /** the admin API's own listener (empty when not listening) */
    readonly adminUrl: string,
    readonly keys: ApiKeysRepository,
    readonly pool: Pool,
    private readonly databaseUrl: string,
    private readonly redisPrefix: string,
  ) {}

  static async start(setup: HarnessSetup): Promise<GatewayHarness> {
    const { databaseUrl, redisUrl, natsUrl } = setup.infra;
    await migrate(databaseUrl);
    const config = loadGatewayConfig({
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      NATS_URL: natsUrl,
      LOG_LEVEL: 'error',
      ADMIN_TOKEN,
      NATS_REQUEST_TIMEOUT_MS: '1000',
      ...setup.env,
    });
    const redisPrefix = setup.options?.redisPrefix ?? `tsvc-test:${process.pid}:${Date.now()}:${Math.random().toString(36).slice(2)}`;
    const app = await createGateway(config, { ...setup.options, redisPrefix });
    let baseUrl = '';
    let adminUrl = '';
    if (setup.listen === false) await app.init();
    else {
      await app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
      const admin = adminServer(app);
      await admin.listen({ port: 0, host: '127.0.0.1' });
      adminUrl = `http://127.0.0.1:${(admin.server.address() as AddressInfo).port}`;
    }
    const pool = createPgPool({ connectionString: databaseUrl, max: 2 });
    return new GatewayHarness(app, baseUrl, adminUrl, new ApiKeysRepository(pool), pool, databaseUrl, redisPrefix);
  }

  async issue(tier: Tier, extra: { expiresAt?: Date; rateLimitPerMinute?: number } = {}): Promise<{ key: string; record: ApiKeyRecord }> {
    return this.keys.issue({ tier, label: `test-${tier}`, ...extra });
  }

  /** fetch against the running gateway's public listener */
  request(path: string, init: HarnessRequest = {}): Promise<Response> {
    return GatewayHarness.send(this.baseUrl, path, init);
  }

  /** fetch against the admin API's listener */
  admin(path: string, init: HarnessRequest = {}): Promise<Response> {
    return GatewayHarness.send(this.adminUrl, path, init);
  }

  private static send(base: string, path: string, init: HarnessRequest): Promise<Response> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key !== undefined) headers['authorization'] = init.form === 'bare' ? init.key : `Bearer ${init.key}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  }

  async close(): Promise<void> {
    // The limiter logs expire on their own; the monthly quota counters would linger for weeks.
    const redis = this.app.get<Redis>(REDIS);
    if (redis.status === 'ready') {
      for await (const keys of redis.scanStream({ match: `${this.redisPrefix}:*`, count: 1000 }))
        if ((keys as string[]).length) await redis.del(...(keys as string[]));
    }
    await this.app.close();
    await this.pool.end();
    await dropDatabase(this.databaseUrl);
  }
}

const json = JSONCodec<unknown>();

/**
 * A stand-in service on NATS answering one contract the way a Nest microservice does (same packet
 * shapes), so the gateway's real NATS path is exercised without starting token-data.
 */
export async function serveRpc<Req, Rep>(
  natsUrl: string,
  contract: RpcContract<Req, Rep>,
  answer: (req: Req) => Rep | Promise<Rep>,
): Promise<NatsConnection> {
  const nc = await connect({ servers: natsUrl });
  const sub = nc.subscribe(contract.subject, { queue: contract.service });
  void (async () => {
    for await (const m of sub) {
      const packet = json.decode(m.data) as { id: string; data: unknown };
      // an answer that throws an RpcErrorPayload ({ code, message }) is sent as the service's error
      void Promise.resolve()
        .then(() => answer(contract.request.fromJSON(packet.data)))
        .then(
          (rep) => m.respond(json.encode({ id: packet.id, response: contract.reply.toJSON(rep), isDisposed: true })),
          (e: unknown) =>
            m.respond(
              json.encode({
                id: packet.id,
                err: isRpcErrorPayload(e)
                  ? { code: e.code, message: e.message }
                  : { code: ErrorCode.ERROR_CODE_INTERNAL, message: String(e) },
                isDisposed: true,
              }),
            ),
        );
    }
  })();
  await nc.flush();
  return nc;
}

/** Rate-limit headers of a response, as numbers and the policy text. */
export function rateHeaders(res: Response): { limit: number; remaining: number; reset: number; policy: string | null } {
  return {
    limit: Number(res.headers.get('ratelimit-limit')),
    remaining: Number(res.headers.get('ratelimit-remaining')),
    reset: Number(res.headers.get('ratelimit-reset')),
    policy: res.headers.get('ratelimit-policy'),
  };
}
