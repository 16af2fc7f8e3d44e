import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { once } from 'node:events';
import type Redis from 'ioredis';
import { documentOnlyCompilers, registerOpenApi } from '@tokensvc/api';
import type { GatewayConfig } from '@tokensvc/config';
import { ApiKeysRepository } from '@tokensvc/persistence';
import { initTracing, JsonLogger, NatsRpcClient } from '@tokensvc/transport';
import { AccessPolicy } from './access/access-policy';
import { KeyStore } from './access/key-store';
import { accessOf } from './operations/operations';
import { createAdminServer } from './admin/admin-server';
import { loadConsoleSettings } from './console/console-settings';
import { registerConsole } from './console/register-console';
import { registerApiRoutes } from './api/api-routes';
import { SERVED } from './api/served';
import { GatewayModule } from './app.module';
import { GATEWAY_DOCUMENT_INFO, registerDocsRoutes } from './docs/docs-routes';
import { DEFAULT_GATEWAY_OPTIONS, type GatewayOptions } from './gateway-options';
import { clientErrorHandler } from './http/client-error';
import { registerCors } from './http/cors';
import { refuseDuplicateHost } from './http/host-header';
import { ErrorFilter } from './http/error.filter';
import { nameRequestSpans, requestIdOf, tracedServerFactory } from './http/request-context';
import { observeResponse } from './http/request-log';
import { registerTokenImageRoute } from './images/token-image';
import { REDIS } from './infra/tokens';
import { decorateClientKey } from './limits/client-address';
import { EndpointUsage } from './limits/endpoint-usage';
import { RateLimiter } from './limits/rate-limiter';
import { UsageRecorder } from './limits/usage-recorder';
import { StatusStreams } from './sse/status-stream';

export interface RouteEntry {
  readonly method: string;
  readonly url: string;
}

const ROUTES = new WeakMap<object, RouteEntry[]>();
const ADMIN = new WeakMap<object, FastifyInstance>();

/** Every route Fastify holds (Nest controllers and declared operations), as registered. */
export function routeTable(app: NestFastifyApplication): readonly RouteEntry[] {
  return ROUTES.get(app) ?? [];
}

/** The admin API's own Fastify instance (not listening until main.ts or a test binds it). */
export function adminServer(app: NestFastifyApplication): FastifyInstance {
  const admin = ADMIN.get(app);
  if (!admin) throw new Error('not a gateway built by createGateway');
  return admin;
}

/** Builds the gateway (Fastify) without listening, so tests, benchmarks and main share one setup. */
export async function createGateway(config: GatewayConfig, overrides: Partial<GatewayOptions> = {}): Promise<NestFastifyApplication> {
  const options: GatewayOptions = { ...DEFAULT_GATEWAY_OPTIONS, ...overrides };
  // traces (OTEL_* variables; ids only when off) before anything opens a connection
  const tracing = initTracing('gateway');
  const adapter = new FastifyAdapter({
    // A caller's request id is kept when it is sane, otherwise a new one is made.
    genReqId: requestIdOf,
    // Each request runs inside its trace span and request id from the first byte (request-context.ts).
    serverFactory: tracedServerFactory,
    routerOptions: { maxParamLength: 512 },
    bodyLimit: 64 * 1024,
    // Unparsable requests (a 431 for over-long headers) answer the gateway's error body, and none to a HEAD.
    clientErrorHandler,
    // X-Forwarded-For is believed only from the proxies the operator lists (CIDRs): req.ip is the
    // right-most entry not sent by one of them (Fastify's proxy-addr), so a client cannot pick the
    // address its anonymous limits and failed-auth budget are keyed on.
    trustProxy: config.trustedProxies.length ? [...config.trustedProxies] : false,
  });
  const logger = new JsonLogger('gateway', config.logLevel);
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config, options), adapter, { logger });
  app.useGlobalFilters(new ErrorFilter());
  const fastify = app.getHttpAdapter().getInstance();

  // Every route's schema is documented by @fastify/swagger (GET /docs/json) and compiled into
  // nothing: queries are validated by the declarations' parser (parseQuery: its messages, list
  // syntax and normalisation are part of the interface), bodies are serialised as before.
  documentOnlyCompilers(fastify);
  await registerOpenApi(fastify, GATEWAY_DOCUMENT_INFO);

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

  // First: a request with two Host headers is refused before anything acts on either.
  refuseDuplicateHost(fastify);
  // Before every other hook: a preflight is answered ahead of authentication (it carries no key).
  await registerCors(fastify, config.corsOrigins);
  fastify.decorateRequest('caller', undefined);
  decorateClientKey(fastify, config.rateLimitIpv6Prefix);
  fastify.addHook('onRequest', async (req, reply) => {
    void reply.header('x-request-id', req.id);
  });
  nameRequestSpans(fastify);
  if (options.enforcement) {
    const policy = app.get(AccessPolicy);
    fastify.addHook('onRequest', (req, reply) => policy.check(req, reply));
  }
  fastify.addHook('onResponse', observeResponse(logger));

  registerApiRoutes(
    fastify,
    { ...SERVED, crossChainStatusStream: app.get(StatusStreams).handler, ...options.served },
    app.get(NatsRpcClient),
    options.tierPolicy,
    options.enforcement,
  );
  const consoleSettings = options.console ?? loadConsoleSettings(process.env);
  registerConsole(fastify, consoleSettings, {
    limiter: app.get(RateLimiter),
    endpointUsage: app.get(EndpointUsage),
    usage: app.get(UsageRecorder),
    repo: app.get(ApiKeysRepository),
    tierPolicy: options.tierPolicy,
  });
  const admin = createAdminServer({
    repo: app.get(ApiKeysRepository),
    keys: app.get(KeyStore),
    limiter: app.get(RateLimiter),
    token: config.adminToken,
    failureLimit: options.adminFailureLimit,
    trustedProxies: config.trustedProxies,
    ipv6PrefixBits: config.rateLimitIpv6Prefix,
    logger,
    onLimiterError: (e) => logger.error(`rate limiter failed (admin API): ${(e as Error).message}`),
    consoleDir: consoleSettings.dir,
    consoleSourceMaps: consoleSettings.sourceMaps,
  });
  ADMIN.set(app, admin);
  // Closing the gateway (SIGTERM, tests) closes the admin listener too, before the pools it uses.
  fastify.addHook('onClose', async () => {
    await admin.close();
    await tracing.flush();
  });
  registerDocsRoutes(fastify);
  registerTokenImageRoute(fastify);
  await redisReady(app.get<Redis>(REDIS));
  return app;
}

/** Waits briefly for the first Redis connection, so the first requests do not fail on a cold client. */
async function redisReady(redis: Redis, timeoutMs = 2000): Promise<void> {
  if (redis.status === 'ready') return;
  // An unreachable Redis is not fatal here: limited routes answer 503 and readiness reports it.
  await Promise.race([once(redis, 'ready').catch(() => undefined), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
}
