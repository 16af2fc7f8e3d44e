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

/** The page's own script, served as a file like the rest: the CSP allows no inline script. No validator badge (a remote call). */
const INIT_JS =
  "window.ui = SwaggerUIBundle({ url: '/docs/json', dom_id: '#ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout', validatorUrl: null });\n";

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tokensvc API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="icon" href="/docs/assets/favicon-32x32.png"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/swagger-init.js"></script>
</body></html>`;

/**
 * Like the console's page: self only (Swagger UI loads its files and the document from here and
 * "Try it out" calls this origin), inline styles allowed (Swagger UI sets style attributes), no
 * inline or remote script, never framed, and no type sniffing.
 */
export const DOCS_PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

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
  registerEndpoint(fastify, 'docsUi', OPS.docsUi, async ({ reply }) =>
    reply.headers(DOCS_PAGE_HEADERS).type('text/html; charset=utf-8').send(PAGE),
  );
  // @fastify/swagger's document of every route on this instance (registerGatewayDocs)
  registerEndpoint(fastify, 'docsJson', OPS.docsJson, async ({ reply }) => {
    void reply.header('x-content-type-options', 'nosniff');
    return fastify.swagger();
  });
  registerEndpoint(fastify, 'docsAsset', OPS.docsAsset, async ({ req, reply }) => {
    const name = (req.params as { file?: string }).file ?? '';
    void reply.header('x-content-type-options', 'nosniff');
    if (name === 'swagger-init.js')
      return reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').send(INIT_JS);
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (type === undefined) throw new GatewayError(404, `no docs asset "${name.slice(0, 64)}"`);
    let body = files.get(name);
    if (!body) files.set(name, (body = readFileSync(join(swaggerUiDir(), name))));
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
  });
}
