import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../http/errors';
import { registerEndpoint } from '../http/register-endpoint';
import { CONSOLE_OPERATIONS as OPS } from '../operations/console.endpoints';

/** The build names its bundles by content hash, plus source maps (served only when enabled); nothing else is served. */
const ASSET = /^[\w.-]{1,100}\.(js|css|map)$/;

/**
 * Self only: the console calls this origin's API and nothing else, loads no remote code, and is
 * never framed (clickjacking on the admin listener would reach the key table). Inline styles are
 * allowed (the chart library sets style attributes); scripts are not.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

const TYPES: Record<string, string> = {
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
};

/**
 * Serves the console's build output: `GET /console` (the page: index.html on the public
 * listener, admin.html on the admin listener) and `GET /console/assets/:file`, a bundle named by
 * its content hash (kept in memory once read, cached by browsers for a year). Only names the build
 * makes are looked up, in `dir/assets` only; 503 while nothing is built. (@fastify/static is not
 * used: it loads an ES-module-only dependency that Jest cannot require.) Source maps (`.map`) are a
 * 404 unless `sourceMaps` (CONSOLE_SOURCE_MAPS=true): a production gateway does not publish the source.
 */
export function registerConsoleFiles(
  fastify: FastifyInstance,
  dir: string,
  page: 'index.html' | 'admin.html',
  o: { sourceMaps?: boolean } = {},
): void {
  const assets = new Map<string, Buffer>();
  const built = (): void => {
    if (!existsSync(join(dir, page)))
      throw new GatewayError(503, `the console is not built (no ${page} in ${dir}): run \`npm run console:build\` or set CONSOLE_DIR`);
  };
  registerEndpoint(fastify, 'consolePage', OPS.consolePage, async ({ reply }) => {
    built();
    return reply
      .headers(PAGE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(await readFile(join(dir, page)));
  });
  registerEndpoint(fastify, 'consoleAsset', OPS.consoleAsset, async ({ req, reply }) => {
    const file = (req.params as { file?: string }).file ?? '';
    const ext = ASSET.exec(file)?.[1];
    if (ext === undefined || file.startsWith('.') || (ext === 'map' && o.sourceMaps !== true))
      throw new GatewayError(404, `no console asset "${file.slice(0, 64)}"`);
    let body = assets.get(file);
    if (!body) {
      built();
      try {
        body = await readFile(join(dir, 'assets', file));
      } catch {
        throw new GatewayError(404, `no console asset "${file}"`);
      }
      assets.set(file, body);
    }
    return reply
      .type(TYPES[ext]!)
      .headers({ 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' })
      .send(body);
  });
}
