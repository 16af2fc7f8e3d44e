import { Module, type DynamicModule } from '@nestjs/common';
import { chainProviders } from '@tokensvc/chain';
import type { CommonConfig } from '@tokensvc/config';
import { pingController } from '@tokensvc/transport';

@Module({})
export class QuoteModule {
  static forRoot(config: CommonConfig): DynamicModule {
    return {
      module: QuoteModule,
      controllers: [pingController('quote')],
      providers: [...chainProviders(config.networks)],
    };
  }
}
