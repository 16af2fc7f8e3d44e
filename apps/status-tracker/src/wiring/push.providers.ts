/** Nest wiring of push delivery: the outbox store and relay, the webhook policy, sender and queue, the two use cases, their lifecycle. */
import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap, type Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import type { TrackerConfig } from '../config/tracker-config';
import { CrossChainStatusUseCase } from '../status/cross-chain-status.usecase';
import { DestinationPolicy } from '../push/destination-policy';
import { StatusOutboxRelay } from '../push/outbox-relay';
import type { PushConfig } from '../push/push-config';
import { ManageWebhooksUseCase } from '../push/manage-webhooks.usecase';
import { RegisterWebhookUseCase } from '../push/register-webhook.usecase';
import { StatusEventStore } from '../push/status-event-store';
import { StatusEventsUseCase } from '../push/status-events.usecase';
import { WebhookQueue } from '../push/webhook-queue';
import { WebhookSender } from '../push/webhook-sender';
import { TRACKER_PG_POOL } from './tracking.providers';

/** Starts the webhook worker and the relay with the app; stops them before the pg pool is ended. */
@Injectable()
export class PushLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly queue: WebhookQueue,
    private readonly relay: StatusOutboxRelay,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.start();
    await this.relay.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay.close();
    await this.queue.close();
  }
}

export function pushProviders(config: TrackerConfig, push: PushConfig): Provider[] {
  const log = new Logger('Push');
  return [
    { provide: StatusEventStore, inject: [TRACKER_PG_POOL], useFactory: (pool: Pool) => new StatusEventStore(pool) },
    {
      provide: DestinationPolicy,
      useFactory: () =>
        new DestinationPolicy({ allowedHosts: push.allowedHosts, httpHosts: push.httpHosts, privateHosts: push.privateHosts }),
    },
    {
      provide: WebhookSender,
      inject: [DestinationPolicy],
      useFactory: (policy: DestinationPolicy) => new WebhookSender(policy, push.timeoutMs),
    },
    {
      provide: WebhookQueue,
      inject: [StatusEventStore, WebhookSender],
      useFactory: (store: StatusEventStore, sender: WebhookSender) =>
        new WebhookQueue(
          store,
          sender,
          {
            redisUrl: config.redisUrl,
            prefix: config.queuePrefix,
            maxAttempts: push.maxAttempts,
            backoffMs: push.backoffMs,
            concurrency: push.concurrency,
            sweepMs: push.sweepMs,
          },
          (m) => log.warn(m),
        ),
    },
    {
      provide: StatusOutboxRelay,
      inject: [StatusEventStore, WebhookQueue],
      useFactory: (store: StatusEventStore, queue: WebhookQueue) =>
        new StatusOutboxRelay(
          store,
          {
            databaseUrl: config.databaseUrl,
            natsUrl: config.natsUrl,
            stream: push.eventsStream,
            prefix: push.eventsPrefix,
            pollMs: push.relayPollMs,
            replicas: config.jetstreamReplicas,
          },
          (ids) => queue.add(ids),
          (m) => log.warn(m),
        ),
    },
    {
      provide: RegisterWebhookUseCase,
      inject: [CrossChainStatusUseCase, StatusEventStore, DestinationPolicy, WebhookQueue],
      useFactory: (status: CrossChainStatusUseCase, store: StatusEventStore, policy: DestinationPolicy, queue: WebhookQueue) =>
        new RegisterWebhookUseCase(status, store, policy, (ids) => queue.add(ids), push.maxPerOrder),
    },
    {
      provide: ManageWebhooksUseCase,
      inject: [StatusEventStore],
      useFactory: (store: StatusEventStore) => new ManageWebhooksUseCase(store),
    },
    {
      provide: StatusEventsUseCase,
      inject: [CrossChainStatusUseCase, StatusEventStore],
      useFactory: (status: CrossChainStatusUseCase, store: StatusEventStore) => new StatusEventsUseCase(status, store),
    },
    PushLifecycle,
  ];
}
