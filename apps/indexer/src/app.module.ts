import { Module, type DynamicModule } from '@nestjs/common';
import type { CommonConfig } from '@tokensvc/config';
import { PersistenceModule } from '@tokensvc/persistence';
import { pingController } from '@tokensvc/transport';
import { SyncCatalogUseCase } from './catalog/sync-catalog.usecase';
import { chainProviders } from '@tokensvc/chain';
import { SERVICE_CONFIG } from './config.token';
import { HeadFollower } from './heads/head-follower.service';

@Module({})
export class IndexerModule {
  static forRoot(config: CommonConfig): DynamicModule {
    return {
      module: IndexerModule,
      imports: [PersistenceModule.forRoot(config.databaseUrl, 'indexer', 10)],
      controllers: [pingController('indexer')],
      providers: [{ provide: SERVICE_CONFIG, useValue: config }, ...chainProviders(config.networks), SyncCatalogUseCase, HeadFollower],
    };
  }
}
