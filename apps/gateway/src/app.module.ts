import { Module, type DynamicModule } from '@nestjs/common';
import type { GatewayConfig } from '@tokensvc/config';
import { CatalogController } from './catalog/catalog.controller';
import { HealthController } from './health/health.controller';
import { InfraModule } from './infra/infra.module';
import { MetricsController } from './http/metrics.controller';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [InfraModule.forRoot(config)],
      controllers: [HealthController, CatalogController, MetricsController],
    };
  }
}
