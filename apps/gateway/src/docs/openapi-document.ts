import { buildOpenApi, type OpenApiDocument } from '@tokensvc/api';
import { OPERATIONS } from '../access/operations';

let cached: OpenApiDocument | undefined;

/**
 * The routes of the public listener. The admin API is served on its own listener (ADMIN_PORT) and
 * this one answers 404 for it, so it is not documented here (docs/gateway.md lists its routes).
 */
const PUBLIC_OPERATIONS = OPERATIONS.filter((o) => o.def.access !== 'admin');

/** The OpenAPI document of every public gateway route, generated from the operation declarations. */
export function gatewayOpenApi(): OpenApiDocument {
  cached ??= buildOpenApi(PUBLIC_OPERATIONS, {
    title: 'tokensvc',
    version: '3.0',
    description: [
      'Token data and swap/zap order service.',
      'Data endpoints need an API key (`Authorization: Bearer <API_KEY>`); trading endpoints accept one and otherwise limit per client address.',
      'Limits per rolling minute: data 100 (free), 500 (paid), up to 3000 (enterprise); trading 100 on all tiers. Monthly calls: free 50K, paid 150K.',
      'Every response of a limited route carries ratelimit-limit, ratelimit-remaining, ratelimit-reset and ratelimit-policy; a 429 adds retry-after.',
      'Errors answer `{ statusCode, error, message, code }`: `code` is one of a closed set (the Error schema lists it) for programs to branch on.',
    ].join(' '),
  });
  return cached;
}
