import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { JsonRpcProvider } from 'ethers';
import { createProviders, destroyProviders } from '@tokensvc/chain';
import type { CommonConfig } from '@tokensvc/config';
import type { Network } from '@tokensvc/domain';

export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

/** JSON-RPC providers of the enabled networks, closed on shutdown. */
@Injectable()
export class ChainProviders implements OnApplicationShutdown {
  readonly byNetwork: Map<Network, JsonRpcProvider>;
  constructor(@Inject(SERVICE_CONFIG) config: CommonConfig) {
    this.byNetwork = createProviders(config.networks);
  }
  async onApplicationShutdown(): Promise<void> {
    await destroyProviders(this.byNetwork);
  }
}
