import { Module, type DynamicModule } from '@nestjs/common';
import { PersistenceModule } from '@tokensvc/persistence';
import { pingController } from '@tokensvc/transport';
import type { TrackerConfig } from '../config/tracker-config';
import { PushController } from '../push/push.controller';
import { loadPushConfig, type PushConfig } from '../push/push-config';
import { StatusController } from '../status/status.controller';
import { pushProviders } from './push.providers';
import { trackingProviders } from './tracking.providers';

export { TRACKING_QUEUE, TrackingQueue } from '../tracking/tracking-queue';

/** The status tracker: one BullMQ job per cross-chain order and origin tx until a terminal state, and `GET /v3/portal/status`. */
@Module({})
export class StatusTrackerModule {
  /** `push`: webhooks and the status outbox (loadPushConfig; the default refuses every webhook URL). */
  static forRoot(config: TrackerConfig, push: PushConfig = loadPushConfig({})): DynamicModule {
    return {
      module: StatusTrackerModule,
      imports: [PersistenceModule.forRoot(config.databaseUrl, 'status-tracker', 4)],
      controllers: [StatusController, PushController, pingController('status-tracker')],
      providers: [...trackingProviders(config), ...pushProviders(config, push)],
    };
  }
}
