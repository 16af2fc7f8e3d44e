import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { LOCAL_ORIGINS, isLocalOrigin } from '@tokensvc/config';

/** The route @fastify/cors adds so Fastify accepts preflights (answered in its onRequest hook). */
export const CORS_PREFLIGHT_ROUTE = { method: 'OPTIONS', url: '*' } as const;

/** Response headers a browser app may read: the limits (to back off) and the id to quote. */
export const EXPOSED_HEADERS = [
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  'retry-after',
  'x-request-id',
];

/**
 * CORS for the allow-list in CORS_ORIGINS (`*` any origin; `local` any port of localhost,
 * 127.0.0.1 and [::1], which `npm start` sets by default and production never does). Registered before the access policy's
 * hook, so a preflight (which never carries the API key) is answered before authentication, and
 * every answer, a 401 or 429 included, carries the headers a browser needs to read it. An origin
 * off the list gets no CORS header at all and its preflight a 404.
 */
export async function registerCors(fastify: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  const local = allowed.has(LOCAL_ORIGINS);
  const allows = (origin: string): boolean => allowed.has(origin) || (local && isLocalOrigin(origin));
  await fastify.register(fastifyCors, {
    origin: any ? '*' : (origin, cb) => cb(null, origin !== undefined && allows(origin) ? origin : false),
    // DELETE: a webhook subscription is removed with DELETE (libs/api endpoints/push.ts)
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    // keys travel in the Authorization header, never in cookies
    credentials: false,
    maxAge: 600,
  });
}
