import { Module, type DynamicModule } from '@nestjs/common';
import { PersistenceModule } from '@tokensvc/persistence';
import { pingController } from '@tokensvc/transport';
import type { TrackerConfig } from './config/tracker-config';
import { StatusController } from './status/status.controller';
import { trackingProviders } from './tracking/tracking.providers';

export { TRACKING_QUEUE, TrackingQueue } from './tracking/tracking-queue';

/** The status tracker: one BullMQ job per cross-chain order and origin tx until a terminal state, and `GET /v3/portal/status`. */
@Module({})
export class StatusTrackerModule {
  static forRoot(config: TrackerConfig): DynamicModule {
    return {
      module: StatusTrackerModule,
      imports: [PersistenceModule.forRoot(config.databaseUrl, 'status-tracker', 4)],
      controllers: [StatusController, pingController('status-tracker')],
      providers: trackingProviders(config),
    };
  }
}
