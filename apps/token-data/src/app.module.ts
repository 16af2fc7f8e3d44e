import { Module, type DynamicModule } from '@nestjs/common';
import type { CommonConfig } from '@tokensvc/config';
import { PersistenceModule } from '@tokensvc/persistence';
import { pingController } from '@tokensvc/transport';
import { CatalogController } from './catalog/catalog.controller';
import { ListNetworksUseCase } from './catalog/list-networks.usecase';
import { ListPlatformsUseCase } from './catalog/list-platforms.usecase';
import { chainProviders } from '@tokensvc/chain';
import { AccountUseCase } from './account/account.usecase';
import { TokenMetricsUseCase } from './activity/metrics.usecase';
import { TokenTransactionsUseCase } from './activity/transactions.usecase';
import { ReplyCache } from './cache/reply-cache';
import { ChainClock } from './clock/chain-clock';
import { TokenHistoryUseCase } from './history/history.usecase';
import { TokenHoldersUseCase } from './holders/holders.usecase';
import { IMAGE_BASE_URL } from './read-model/image-base';
import { ListTokensUseCase } from './tokens/list-tokens.usecase';
import { TokensController } from './tokens/tokens.controller';

@Module({})
export class TokenDataModule {
  static forRoot(config: CommonConfig): DynamicModule {
    return {
      module: TokenDataModule,
      imports: [PersistenceModule.forRoot(config.databaseUrl, 'token-data', 20)],
      controllers: [CatalogController, TokensController, pingController('token-data')],
      providers: [
        ...chainProviders(config.networks),
        { provide: IMAGE_BASE_URL, useValue: config.imageBaseUrl ?? '' },
        ChainClock,
        ReplyCache,
        ListNetworksUseCase,
        ListPlatformsUseCase,
        ListTokensUseCase,
        AccountUseCase,
        TokenHistoryUseCase,
        TokenTransactionsUseCase,
        TokenMetricsUseCase,
        TokenHoldersUseCase,
      ],
    };
  }
}
