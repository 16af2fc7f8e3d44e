import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isNetwork } from '@tokensvc/domain';
import { GatewayError } from '../http/errors';
import { registerEndpoint } from '../http/register-endpoint';
import { GATEWAY_OPERATIONS as OPS } from '../operations/gateway.endpoints';

/** `<0x address>.svg`, the file part of the image paths the indexer stores (batch-builder tokenImage). */
const FILE = /^(0x[0-9a-fA-F]{40})\.svg$/;

export interface TokenImage {
  readonly svg: string;
  readonly etag: string;
}

/**
 * A token's placeholder logo, derived from its path alone (no lookup: a symbol would need a NATS
 * call per image, and the URL must answer the same bytes on every gateway): a circle whose hue comes
 * from the SHA-256 of the token key, with the first four hex digits of the address.
 */
export function tokenImage(network: string, address: string): TokenImage {
  const key = `${network}:${address.toLowerCase()}`;
  const digest = createHash('sha256').update(key).digest();
  const hue = digest.readUInt16BE(0) % 360;
  const saturation = 55 + (digest[2]! % 25);
  const label = address.slice(2, 6).toUpperCase();
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${key}">` +
    `<circle cx="32" cy="32" r="32" fill="hsl(${hue},${saturation}%,42%)"/>` +
    `<text x="32" y="38" text-anchor="middle" font-family="Helvetica,Arial,sans-serif" font-size="16" font-weight="700" fill="#fff">${label}</text>` +
    `</svg>`;
  return { svg, etag: `"${createHash('sha256').update(svg).digest('hex').slice(0, 32)}"` };
}

/** GET /images/tokens/:network/:file: the URL the API returns in `image`/`images`. Public, no key. */
export function registerTokenImageRoute(fastify: FastifyInstance): void {
  registerEndpoint(fastify, 'tokenImage', OPS.tokenImage, async ({ req, reply }) => {
    const { network = '', file = '' } = req.params as { network?: string; file?: string };
    const address = FILE.exec(file)?.[1];
    if (!isNetwork(network) || address === undefined) {
      throw new GatewayError(
        404,
        `no token image "${network.slice(0, 32)}/${file.slice(0, 64)}": the path is /images/tokens/<network>/<0x address>.svg`,
      );
    }
    const image = tokenImage(network, address);
    // The image is a pure function of its path: it never changes, so caches may keep it for a year.
    void reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', image.etag);
    if (req.headers['if-none-match'] === image.etag) return reply.code(304).send();
    return reply.type('image/svg+xml').send(image.svg);
  });
}
