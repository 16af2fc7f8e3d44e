import type { DynamicModule, INestMicroservice, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import type { NatsConnection } from 'nats';
import { natsConnectOptions, redactUrl, type CommonConfig } from '@tokensvc/config';
import type { ServiceName } from '@tokensvc/messages';
import { HealthServer, type ReadinessCheck } from './health-server';
import { JsonLogger } from './logger';
import { RpcReplySerializer } from './reply-body';
import { RpcTracingInterceptor } from './telemetry/rpc-tracing.interceptor';
import { initTracing } from './telemetry/tracing';

export interface MicroserviceHandle {
  app: INestMicroservice;
  health: HealthServer;
  logger: JsonLogger;
  stop(): Promise<void>;
}

/**
 * Starts a NATS microservice: its replicas join one queue group (the service name), so NATS
 * spreads requests across them. SIGTERM/SIGINT close the NATS subscription (drain) and the
 * app's resources before exit.
 */
export async function startMicroservice(
  service: ServiceName,
  module: Type<unknown> | DynamicModule,
  config: CommonConfig,
  readiness: (app: INestMicroservice) => Record<string, ReadinessCheck>,
): Promise<MicroserviceHandle> {
  // traces (OTEL_* variables; ids only when off) before anything opens a connection
  const tracing = initTracing(service);
  const logger = new JsonLogger(service, config.logLevel);
  // the serializer reads the connected server's max_payload (known once the app is listening)
  const bus: { nc?: NatsConnection } = {};
  const serializer = new RpcReplySerializer(() => bus.nc?.info?.max_payload);
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(module, {
    logger,
    bufferLogs: false,
    transport: Transport.NATS,
    // the usual packets, plus replies that are a response body as it is (reply-body.ts)
    options: { ...natsConnectOptions(config.natsUrl), queue: service, name: service, maxReconnectAttempts: -1, reconnectTimeWait: 250, serializer },
  });
  // every handler continues the caller's trace and request id (NATS headers)
  app.useGlobalInterceptors(new RpcTracingInterceptor());
  // Nest reports the NATS server status; readiness follows it.
  let natsUp = false;
  app.status.subscribe((s) => {
    natsUp = s === 'connected';
  });
  await app.listen();
  bus.nc = app.unwrap<NatsConnection>();
  natsUp = true;
  const health = new HealthServer(service, { nats: async () => natsUp, ...readiness(app) });
  await health.listen(config.healthPort);
  logger.info(`${service} listening on NATS ${redactUrl(config.natsUrl)} (queue group ${service})`, { healthPort: config.healthPort });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      logger.info(`${service} shutting down`);
      await health.close();
      await app.close();
      await tracing.flush();
    })();
    return stopping;
  };
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.once(sig, () => {
      void stop().then(
        () => process.exit(0),
        (e: unknown) => {
          logger.error(e);
          process.exit(1);
        },
      );
    });
  }
  return { app, health, logger, stop };
}
