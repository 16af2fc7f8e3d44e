import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { JsonRpcProvider } from 'ethers';
import { createProviders, destroyProviders } from '@tokensvc/chain';
import type { CommonConfig } from '@tokensvc/config';
import type { Network } from '@tokensvc/domain';
import { pingController } from '@tokensvc/transport';

export const QUOTE_CONFIG = Symbol('QUOTE_CONFIG');

/** JSON-RPC providers used for simulation (eth_call) and relaying. */
@Injectable()
export class QuoteChains implements OnApplicationShutdown {
  readonly byNetwork: Map<Network, JsonRpcProvider>;
  constructor(@Inject(QUOTE_CONFIG) config: CommonConfig) {
    this.byNetwork = createProviders(config.networks);
  }
  async onApplicationShutdown(): Promise<void> {
    await destroyProviders(this.byNetwork);
  }
}

@Module({})
export class QuoteModule {
  static forRoot(config: CommonConfig): DynamicModule {
    return {
      module: QuoteModule,
      controllers: [pingController('quote')],
      providers: [{ provide: QUOTE_CONFIG, useValue: config }, QuoteChains],
    };
  }
}
