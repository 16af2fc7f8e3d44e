import { Inject, Logger, Module, type BeforeApplicationShutdown, type DynamicModule } from '@nestjs/common';
import type { GatewayConfig } from '@tokensvc/config';
import type { SseSettings } from './sse-settings';
import { StatusEventHub } from './status-event-hub';
import { StatusStreams } from './status-stream';

/** The status stream's hub (one JetStream feed per gateway) and the open streams; both closed before the HTTP server. */
@Module({})
export class SseModule implements BeforeApplicationShutdown {
  constructor(
    @Inject(StatusStreams) private readonly streams: StatusStreams,
    @Inject(StatusEventHub) private readonly hub: StatusEventHub,
  ) {}

  static forRoot(config: GatewayConfig, settings: SseSettings): DynamicModule {
    const log = new Logger('sse');
    return {
      module: SseModule,
      providers: [
        {
          provide: StatusEventHub,
          useFactory: () =>
            new StatusEventHub(config.natsUrl, settings.stream, settings.prefix, (m) => log.warn(m), config.jetstreamReplicas),
        },
        { provide: StatusStreams, inject: [StatusEventHub], useFactory: (hub: StatusEventHub) => new StatusStreams(hub, settings) },
      ],
      exports: [StatusStreams, StatusEventHub],
    };
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.streams.close();
    await this.hub.close();
  }
}
