import { endpointList, openApiDocument, type OpenApiDocument } from '@tokensvc/api';

/**
 * The public interface's OpenAPI document as the code builds it (libs/api: every endpoint
 * declaration, documented by @fastify/swagger); the gateway serves the same operations plus its
 * probes and docs routes.
 */
export function publicOpenApi(): Promise<OpenApiDocument> {
  return openApiDocument(endpointList(), {
    title: 'tokensvc',
    version: '3.0',
    description: 'Token data and swap/zap order service: the public interface.',
  });
}
