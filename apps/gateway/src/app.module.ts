import { Module, type DynamicModule } from '@nestjs/common';
import type { GatewayConfig } from '@tokensvc/config';
import { AccessModule } from './access/access.module';
import type { GatewayOptions } from './gateway-options';
import { HealthController } from './health/health.controller';
import { InfraModule } from './infra/infra.module';
import { MetricsController } from './health/metrics.controller';
import { SseModule } from './sse/sse.module';

/**
 * Nest holds the clients and their lifecycle; the public routes are registered on Fastify from
 * their declarations (see bootstrap.ts), the probes and metrics are controllers.
 */
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, options: GatewayOptions): DynamicModule {
    return {
      module: GatewayModule,
      imports: [InfraModule.forRoot(config), AccessModule.forRoot(options), SseModule.forRoot(config, options.sse)],
      controllers: [HealthController, MetricsController],
    };
  }
}
