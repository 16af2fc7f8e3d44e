import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import type { GatewayConfig } from '@tokensvc/config';
import { JsonLogger } from '@tokensvc/transport';
import { GatewayModule } from './app.module';
import { ErrorFilter } from './http/error.filter';
import { httpMetrics } from './http/metrics';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Builds the gateway (Fastify) without listening, so tests and main share one setup. */
export async function createGateway(config: GatewayConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    // A caller's request id is kept when it is sane, otherwise a new one is made.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: 512 },
    bodyLimit: 64 * 1024,
    trustProxy: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config), adapter, { logger: new JsonLogger('gateway', config.logLevel) });
  app.useGlobalFilters(new ErrorFilter());
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (req, reply) => {
    void reply.header('x-request-id', req.id);
  });
  fastify.addHook('onResponse', async (req, reply) => {
    httpMetrics.duration.observe({ method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  return app;
}
