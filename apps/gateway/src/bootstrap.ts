import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { GatewayConfig } from '@tokensvc/config';
import { ApiKeysRepository } from '@tokensvc/persistence';
import { JsonLogger, NatsRpcClient } from '@tokensvc/transport';
import { AccessPolicy } from './access/access-policy';
import { KeyStore } from './access/key-store';
import { accessOf } from './access/operations';
import { registerAdminRoutes } from './admin/admin-routes';
import { registerApiRoutes } from './api/api-routes';
import { SERVED } from './api/served';
import { GatewayModule } from './app.module';
import { registerDocsRoutes } from './docs/docs-routes';
import { DEFAULT_GATEWAY_OPTIONS, type GatewayOptions } from './gateway-options';
import { ErrorFilter } from './http/error.filter';
import { observeResponse } from './http/request-log';
import { REDIS } from './infra/tokens';
import { StatusStreams } from './sse/status-stream';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface RouteEntry {
  readonly method: string;
  readonly url: string;
}

const ROUTES = new WeakMap<object, RouteEntry[]>();

/** Every route Fastify holds (Nest controllers and declared operations), as registered. */
export function routeTable(app: NestFastifyApplication): readonly RouteEntry[] {
  return ROUTES.get(app) ?? [];
}

/** Builds the gateway (Fastify) without listening, so tests, benchmarks and main share one setup. */
export async function createGateway(config: GatewayConfig, overrides: Partial<GatewayOptions> = {}): Promise<NestFastifyApplication> {
  const options: GatewayOptions = { ...DEFAULT_GATEWAY_OPTIONS, ...overrides };
  const adapter = new FastifyAdapter({
    // A caller's request id is kept when it is sane, otherwise a new one is made.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: 512 },
    bodyLimit: 64 * 1024,
    // Only X-Forwarded-For hops the operator vouches for: anonymous trading limits key on the client IP.
    trustProxy: config.trustProxyHops > 0 ? config.trustProxyHops : false,
  });
  const logger = new JsonLogger('gateway', config.logLevel);
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config, options), adapter, { logger });
  app.useGlobalFilters(new ErrorFilter());
  const fastify = app.getHttpAdapter().getInstance();

  const routes: RouteEntry[] = [];
  ROUTES.set(app, routes);
  fastify.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url });
  });
  // A route nobody classified would be reachable without a policy: refuse to start.
  fastify.addHook('onReady', async () => {
    const open = routes.filter((r) => accessOf(r.method, r.url) === undefined);
    if (open.length) throw new Error(`routes without an access class: ${open.map((r) => `${r.method} ${r.url}`).join(', ')}`);
  });

  fastify.decorateRequest('caller', undefined);
  fastify.addHook('onRequest', async (req, reply) => {
    void reply.header('x-request-id', req.id);
  });
  if (options.enforcement) {
    const policy = app.get(AccessPolicy);
    fastify.addHook('onRequest', (req, reply) => policy.check(req, reply));
  }
  fastify.addHook('onResponse', observeResponse(logger));

  registerApiRoutes(fastify, { ...SERVED, crossChainStatusStream: app.get(StatusStreams).handler, ...options.served }, app.get(NatsRpcClient), options.tierPolicy, options.enforcement);
  registerAdminRoutes(fastify, app.get(ApiKeysRepository), app.get(KeyStore));
  registerDocsRoutes(fastify);
  await redisReady(app.get<Redis>(REDIS));
  return app;
}

/** Waits briefly for the first Redis connection, so the first requests do not fail on a cold client. */
async function redisReady(redis: Redis, timeoutMs = 2000): Promise<void> {
  if (redis.status === 'ready') return;
  // An unreachable Redis is not fatal here: limited routes answer 503 and readiness reports it.
  await Promise.race([once(redis, 'ready').catch(() => undefined), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
}
