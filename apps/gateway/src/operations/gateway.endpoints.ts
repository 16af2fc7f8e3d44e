import { Type } from '@sinclair/typebox';
import { anyObject, dateTime, endpoint, query } from '@tokensvc/api';

/** The gateway's own routes beyond the public interface: probes, metrics, the docs and token images. */
const ready = endpoint({
  method: 'GET',
  path: '/health/ready',
  summary:
    'Readiness: NATS, Postgres and Redis answer (503 otherwise); services listed, and per network whether its data is on the chain (dataOnChain down while it is ahead of it)',
  tag: 'Health',
  access: 'public',
  query: query({}),
  response: Type.Object({ status: Type.String(), checks: anyObject(), services: anyObject(), dataOnChain: anyObject() }),
});

const live = endpoint({
  method: 'GET',
  path: '/health/live',
  summary: 'Liveness (same as /health)',
  tag: 'Health',
  access: 'public',
  query: query({}),
  response: Type.Object({ status: Type.String(), timestamp: dateTime() }),
});

const metrics = endpoint({
  method: 'GET',
  path: '/metrics',
  summary: 'Prometheus metrics (requests per route and status, limiter and auth counters)',
  tag: 'Health',
  access: 'public',
  query: query({}),
  response: Type.String(),
  contentType: 'text/plain',
});

const docsUi = endpoint({
  method: 'GET',
  path: '/docs',
  summary: 'This document in a browser (Swagger UI)',
  tag: 'Docs',
  access: 'public',
  query: query({}),
  response: Type.String(),
  contentType: 'text/html',
});

const docsJson = endpoint({
  method: 'GET',
  path: '/docs/json',
  summary: 'This OpenAPI document',
  tag: 'Docs',
  access: 'public',
  query: query({}),
  response: anyObject(),
});

const docsAsset = endpoint({
  method: 'GET',
  path: '/docs/assets/:file',
  summary: 'Static files of the docs UI',
  tag: 'Docs',
  access: 'public',
  pathParams: { file: 'file name' },
  query: query({}),
  response: Type.String(),
  contentType: 'application/octet-stream',
});

const tokenImage = endpoint({
  method: 'GET',
  path: '/images/tokens/:network/:file',
  summary:
    "A token's image (the URL in a Token's `image`): a deterministic SVG derived from the token key, cached for a year with an ETag; 404 for a path that is not <network>/<0x address>.svg",
  tag: 'Images',
  access: 'public',
  pathParams: { network: 'network of the token', file: 'the token address followed by .svg' },
  query: query({}),
  response: Type.String(),
  contentType: 'image/svg+xml',
});

export const GATEWAY_OPERATIONS = { ready, live, metrics, docsUi, docsJson, docsAsset, tokenImage } as const;
