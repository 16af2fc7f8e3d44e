import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { CommonConfig } from '@tokensvc/config';
import { PersistenceModule } from '@tokensvc/persistence';
import { pingController } from '@tokensvc/transport';

export const TRACKER_CONFIG = Symbol('TRACKER_CONFIG');
export const TRACKING_QUEUE = 'cross-chain-tracking';

/** The BullMQ queue that drives one tracker per cross-chain order (Redis-backed, survives restarts). */
@Injectable()
export class TrackingQueue implements OnApplicationShutdown {
  readonly queue: Queue;
  constructor(@Inject(TRACKER_CONFIG) config: CommonConfig) {
    const u = new URL(config.redisUrl);
    this.queue = new Queue(TRACKING_QUEUE, { connection: { host: u.hostname, port: Number(u.port) || 6379, password: u.password || undefined, maxRetriesPerRequest: null } });
  }
  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}

@Module({})
export class StatusTrackerModule {
  static forRoot(config: CommonConfig): DynamicModule {
    return {
      module: StatusTrackerModule,
      imports: [PersistenceModule.forRoot(config.databaseUrl, 'status-tracker', 10)],
      controllers: [pingController('status-tracker')],
      providers: [{ provide: TRACKER_CONFIG, useValue: config }, TrackingQueue],
    };
  }
}
