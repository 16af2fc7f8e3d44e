import { Module, type DynamicModule } from '@nestjs/common';
import type { CommonConfig } from '@tokensvc/config';
import { PersistenceModule } from '@tokensvc/persistence';
import { pingController } from '@tokensvc/transport';
import { CatalogController } from './catalog/catalog.controller';
import { ListNetworksUseCase } from './catalog/list-networks.usecase';
import { ListPlatformsUseCase } from './catalog/list-platforms.usecase';

@Module({})
export class TokenDataModule {
  static forRoot(config: CommonConfig): DynamicModule {
    return {
      module: TokenDataModule,
      imports: [PersistenceModule.forRoot(config.databaseUrl, 'token-data', 20)],
      controllers: [CatalogController, pingController('token-data')],
      providers: [ListNetworksUseCase, ListPlatformsUseCase],
    };
  }
}
