import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EncodedBody } from '@tokensvc/transport';

const gunzipAsync = promisify(gunzip);

/** Whether an Accept-Encoding header admits gzip: `gzip` with q > 0, or else `*` with q > 0. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const q: Record<string, number> = {};
  for (const part of value.split(',')) {
    const [coding = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const given = params.find((p) => p.startsWith('q='));
    if (coding) q[coding] = given === undefined ? 1 : Number(given.slice(2)) || 0;
  }
  return (q['gzip'] ?? q['*'] ?? 0) > 0;
}

/**
 * The payload of a JSON body a service encoded (reply-body.ts in @tokensvc/transport), sent as it
 * is: no parse, no second encoding. A gzipped one goes out gzipped to clients that accept it and
 * is inflated (on the thread pool) for the others.
 */
export async function sendEncodedBody(req: FastifyRequest, reply: FastifyReply, body: EncodedBody): Promise<Buffer> {
  const bytes = Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength);
  void reply.type('application/json; charset=utf-8');
  if (body.encoding !== 'gzip') return bytes;
  void reply.header('vary', 'accept-encoding');
  if (acceptsGzip(req.headers['accept-encoding'])) {
    void reply.header('content-encoding', 'gzip');
    return bytes;
  }
  return gunzipAsync(bytes);
}
