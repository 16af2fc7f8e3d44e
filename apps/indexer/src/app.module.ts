import { Module, type DynamicModule } from '@nestjs/common';
import type { CommonConfig } from '@tokensvc/config';
import { PersistenceModule } from '@tokensvc/persistence';
import { pingController } from '@tokensvc/transport';
import { SyncCatalogUseCase } from './catalog/sync-catalog.usecase';
import { ChainProviders, SERVICE_CONFIG } from './chain.providers';
import { HeadFollower } from './heads/head-follower.service';

@Module({})
export class IndexerModule {
  static forRoot(config: CommonConfig): DynamicModule {
    return {
      module: IndexerModule,
      imports: [PersistenceModule.forRoot(config.databaseUrl, 'indexer', 10)],
      controllers: [pingController('indexer')],
      providers: [{ provide: SERVICE_CONFIG, useValue: config }, ChainProviders, SyncCatalogUseCase, HeadFollower],
    };
  }
}
