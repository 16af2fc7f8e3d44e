import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../http/errors';
import { registerEndpoint } from '../http/register-endpoint';
import { GATEWAY_OPERATIONS as OPS } from '../operations/gateway.endpoints';

/** The Swagger UI files served under /docs/assets (a fixed list: no path from the request reaches the disk). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tokensvc API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="icon" href="/docs/assets/favicon-32x32.png"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/docs/json', dom_id: '#ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });</script>
</body></html>`;

function swaggerUiDir(): string {
  return join(require.resolve('swagger-ui-dist/package.json'), '..');
}

/** The public listener's document: every route on it, from each route's schema (the admin API is on its own listener). */
export const GATEWAY_DOCUMENT_INFO = {
  title: 'tokensvc',
  version: '3.0',
  description: [
    'Token data and swap/zap order service.',
    'Data endpoints need an API key (`Authorization: Bearer <API_KEY>`); trading endpoints accept one and otherwise limit per client address.',
    'Limits per rolling minute: data 100 (free), 500 (paid), up to 3000 (enterprise); trading 100 on all tiers. Monthly calls: free 50K, paid 150K.',
    'Every response of a limited route carries ratelimit-limit, ratelimit-remaining, ratelimit-reset and ratelimit-policy; a 429 adds retry-after.',
    'Errors answer `{ statusCode, error, message, code }`: `code` is one of a closed set (the Error schema lists it) for programs to branch on.',
  ].join(' '),
};

export function registerDocsRoutes(fastify: FastifyInstance): void {
  const files = new Map<string, Buffer>();
  registerEndpoint(fastify, 'docsUi', OPS.docsUi, async ({ reply }) => reply.type('text/html; charset=utf-8').send(PAGE));
  // @fastify/swagger's document of every route on this instance (registerGatewayDocs)
  registerEndpoint(fastify, 'docsJson', OPS.docsJson, async () => fastify.swagger());
  registerEndpoint(fastify, 'docsAsset', OPS.docsAsset, async ({ req, reply }) => {
    const name = (req.params as { file?: string }).file ?? '';
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (type === undefined) throw new GatewayError(404, `no docs asset "${name.slice(0, 64)}"`);
    let body = files.get(name);
    if (!body) files.set(name, (body = readFileSync(join(swaggerUiDir(), name))));
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
  });
}
