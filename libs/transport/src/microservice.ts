import type { DynamicModule, INestMicroservice, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions, NestMicroservice } from '@nestjs/microservices';
import type { NatsConnection } from 'nats';
import { DEFAULT_HEALTH_HOST, natsConnectOptions, redactUrl, type CommonConfig } from '@tokensvc/config';
import type { ServiceName } from '@tokensvc/messages';
import { checkBusAuth } from './bus-auth';
import { HealthServer, runChecks, type ReadinessCheck } from './health-server';
import { JsonLogger } from './logger';
import { QueueGroupServer } from './queue-group-server';
import { RpcReplySerializer } from './reply-body';
import { RpcTracingInterceptor } from './telemetry/rpc-tracing.interceptor';
import { initTracing } from './telemetry/tracing';

export interface MicroserviceHandle {
  app: INestMicroservice;
  health: HealthServer;
  logger: JsonLogger;
  stop(): Promise<void>;
}

export interface MicroserviceOptionsExtra {
  /** what /health/caught-up adds to readiness (the indexer: backfill done, data on the chain) */
  caughtUp?: (app: INestMicroservice) => Record<string, ReadinessCheck>;
  /** on SIGTERM, how long taken requests may take to be answered before the app closes anyway */
  drainGraceMs?: number;
  /** the app uses Redis (its queues, counters): the start-time bus check covers its Redis too */
  usesRedis?: boolean;
}

/**
 * Starts a NATS microservice: its replicas join one queue group (the service name), so NATS
 * spreads requests across them. A replica joins only once it can answer: the app is initialised
 * (its background loading started) and every `readiness` check passes, so a scale-up never
 * answers "still loading". Before anything connects, it states whether its bus enforces users, and
 * in the production configuration refuses to start on one that does not (bus-auth.ts). SIGTERM/SIGINT: it leaves the group (drains its subscriptions: no new
 * requests), answers what it took, then closes the app's resources and exits.
 */
export async function startMicroservice(
  service: ServiceName,
  module: Type<unknown> | DynamicModule,
  config: CommonConfig,
  readiness: (app: INestMicroservice) => Record<string, ReadinessCheck>,
  extra: MicroserviceOptionsExtra = {},
): Promise<MicroserviceHandle> {
  // traces (OTEL_* variables; ids only when off) before anything opens a connection
  const tracing = initTracing(service);
  const logger = new JsonLogger(service, config.logLevel);
  // whether the bus refuses clients without credentials; in the production configuration it must
  await checkBusAuth(service, config, { usesRedis: extra.usesRedis ?? false }, logger);
  // the serializer reads the connected server's max_payload (known once the app is listening)
  const bus: { nc?: NatsConnection } = {};
  const serializer = new RpcReplySerializer(() => bus.nc?.info?.max_payload);
  const server = new QueueGroupServer(
    // the usual packets, plus replies that are a response body as it is (reply-body.ts)
    { ...natsConnectOptions(config.natsUrl), queue: service, name: service, maxReconnectAttempts: -1, reconnectTimeWait: 250, serializer },
  );
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(module, { logger, bufferLogs: false, strategy: server });
  // every handler continues the caller's trace and request id (NATS headers)
  app.useGlobalInterceptors(new RpcTracingInterceptor());
  // Nest reports the NATS server status; readiness follows it.
  let natsUp = false;
  app.status.subscribe((s) => {
    natsUp = s === 'connected';
  });
  const checks = readiness(app);
  const health = new HealthServer(service, { nats: async () => natsUp, ...checks }, extra.caughtUp?.(app));
  health.phase = 'starting';
  health.onRouteError = (path, e) => logger.error({ msg: `health side door: ${path} failed`, err: e });
  await health.listen(config.healthPort, config.healthHost ?? DEFAULT_HEALTH_HOST);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const joined = health.phase === 'serving';
      health.phase = 'draining';
      if (joined) {
        logger.info(`${service} shutting down: leaving queue group ${service}`, { inFlight: server.inFlight });
        const unanswered = await server.leave(extra.drainGraceMs ?? 10_000);
        if (unanswered > 0) logger.warn(`${service} closing with ${unanswered} requests unanswered after the grace period`);
      } else logger.info(`${service} shutting down before joining queue group ${service}`);
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

  // Lifecycle hooks first (background loading starts), then the queue group once ready.
  // NestMicroservice.init() (Nest 11) runs the hooks in the application context's init() and again
  // in registerModules() unless told they ran: without this flag every onModuleInit and
  // onApplicationBootstrap ran twice (two indexer writers, two relay workers per process).
  // (a method of Nest's NestMicroservice, the instance's class; INestMicroservice does not declare it)
  (app as unknown as Pick<NestMicroservice, 'setIsInitHookCalled'>).setIsInitHookCalled(true);
  await app.init();
  await untilReady(service, checks, logger, () => stopping !== undefined);
  if (stopping) return { app, health, logger, stop };
  await app.listen();
  bus.nc = app.unwrap<NatsConnection>();
  natsUp = true;
  health.phase = 'serving';
  logger.info(`${service} listening on NATS ${redactUrl(config.natsUrl)} (queue group ${service})`, { healthPort: config.healthPort });
  return { app, health, logger, stop };
}

/** Waits until every check passes (a line every 10 s says which do not), or `abort()` says stop. */
async function untilReady(
  service: string,
  checks: Record<string, ReadinessCheck>,
  logger: JsonLogger,
  abort: () => boolean,
): Promise<void> {
  let said = Date.now();
  while (!abort()) {
    const report = await runChecks(checks);
    if (report.status === 'ok') return;
    if (Date.now() - said >= 10_000) {
      said = Date.now();
      logger.info(
        `${service} not joining its queue group yet: waiting for ${Object.keys(report.checks)
          .filter((k) => report.checks[k] === 'down')
          .join(', ')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
