import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { documentOnlyCompilers } from '@tokensvc/api';
import type { ApiKeysRepository } from '@tokensvc/persistence';
import type { JsonLogger } from '@tokensvc/transport';
import { credentialFrom, safeEqual } from '../access/credentials';
import type { KeyStore } from '../access/key-store';
import { describeError } from '../http/error.filter';
import { errorBody, sendError } from '../http/errors';
import { httpMetrics } from '../http/metrics';
import { observeResponse } from '../http/request-log';
import { decorateClientKey } from '../limits/client-address';
import type { RateLimiter, Reservation } from '../limits/rate-limiter';
import { registerConsoleFiles } from '../console/console-static';
import { refuseDuplicateHost } from '../http/host-header';
import { registerAdminRoutes } from './admin-routes';

export interface AdminServerDeps {
  readonly repo: ApiKeysRepository;
  readonly keys: KeyStore;
  readonly limiter: RateLimiter;
  /** undefined: every admin request answers 403 */
  readonly token: string | undefined;
  /** wrong or missing admin tokens allowed per client and limiter window */
  readonly failureLimit: number;
  readonly trustedProxies: readonly string[];
  readonly ipv6PrefixBits: number;
  readonly logger: JsonLogger;
  readonly onLimiterError: (e: unknown) => void;
  /** the console's build output: its key management page is served here (/console), never on the public listener */
  readonly consoleDir?: string;
  /** serve the console's source maps (CONSOLE_SOURCE_MAPS=true) */
  readonly consoleSourceMaps?: boolean;
}

/** The console's page and files carry no secret: served without the admin token (the page asks for it). */
const CONSOLE_ROUTES = new Set(['/console', '/console/assets/:file']);

/**
 * The admin API (`/admin/keys`) on a Fastify instance of its own, which main.ts binds to
 * ADMIN_HOST:ADMIN_PORT (loopback by default): the public listener never serves these routes, so
 * the key table is not one token guess away from the internet.
 */
export function createAdminServer(deps: AdminServerDeps): FastifyInstance {
  const fastify = Fastify({ bodyLimit: 64 * 1024, trustProxy: deps.trustedProxies.length ? [...deps.trustedProxies] : false });
  // The routes' schemas document them; the body is validated by parseQuery (admin-routes.ts), as on the public listener.
  documentOnlyCompilers(fastify);
  decorateClientKey(fastify, deps.ipv6PrefixBits);
  refuseDuplicateHost(fastify);
  fastify.setNotFoundHandler((req, reply) => sendError(reply, 404, `no route ${req.method} ${req.url.split('?')[0]} on the admin API`));
  fastify.setErrorHandler((e, req, reply) => {
    const { status, message, code } = describeError(e, req);
    if (status >= 500)
      deps.logger.error({ msg: 'admin request failed', requestId: req.id, status, err: e instanceof Error ? e.message : String(e) });
    void reply.status(status).send(errorBody(status, message, code));
  });
  fastify.addHook('onRequest', async (req, reply) =>
    deps.consoleDir !== undefined && req.method === 'GET' && CONSOLE_ROUTES.has(req.routeOptions.url ?? '')
      ? undefined
      : guard(deps, req, reply),
  );
  fastify.addHook('onResponse', observeResponse(deps.logger));
  registerAdminRoutes(fastify, deps.repo, deps.keys);
  if (deps.consoleDir !== undefined) registerConsoleFiles(fastify, deps.consoleDir, 'admin.html', { sourceMaps: deps.consoleSourceMaps });
  return fastify;
}

/**
 * The admin token check. Every attempt first takes a slot of the client's admin budget (given back
 * when the token is right), so concurrent guesses cannot overshoot it; once it is spent, even the
 * right token waits (429), so a guesser learns nothing until the window frees a slot.
 */
async function guard(deps: AdminServerDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (deps.token === undefined)
    return sendError(reply, 403, 'the admin API is disabled: set ADMIN_TOKEN (32 characters or more) to enable it');
  let slot: Reservation;
  try {
    slot = await deps.limiter.reserve(`ip:${req.clientKey}`, 'admin', deps.failureLimit);
  } catch (e) {
    deps.onLimiterError(e);
    return sendError(reply, 503, 'rate limiter unavailable (Redis); retry shortly');
  }
  if (slot.decision.verdict !== 'admitted') {
    httpMetrics.limitRejections.inc({ surface: 'admin', reason: 'rate' });
    void reply.header('retry-after', slot.decision.resetSeconds);
    return sendError(
      reply,
      429,
      `too many failed admin token attempts from this address: ${deps.failureLimit} per ${Math.ceil(deps.limiter.windowMs / 1000)} s; retry in ${slot.decision.resetSeconds} s`,
      'failed_auth_throttled',
    );
  }
  const given = credentialFrom(req.headers.authorization);
  if (given !== undefined && safeEqual(given, deps.token)) {
    slot.release().catch(deps.onLimiterError);
    return undefined;
  }
  httpMetrics.authRejections.inc({ reason: 'admin' });
  return sendError(reply, 401, 'admin token missing or wrong: send "Authorization: Bearer <ADMIN_TOKEN>"');
}
