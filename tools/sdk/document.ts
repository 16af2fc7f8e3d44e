import { buildOpenApi, endpointList, type OpenApiDocument } from '@tokensvc/api';

/**
 * The public interface's OpenAPI document as the code builds it (libs/api: every endpoint
 * declaration); the gateway serves the same operations plus its probes and docs routes.
 */
export function publicOpenApi(): OpenApiDocument {
  return buildOpenApi(endpointList(), {
    title: 'tokensvc',
    version: '3.0',
    description: 'Token data and swap/zap order service: the public interface.',
  });
}
