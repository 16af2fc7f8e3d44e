import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { JsonRpcProvider } from 'ethers';
import type { NetworkEndpoint } from '@tokensvc/config';
import type { Network } from '@tokensvc/domain';
import { createProviders, destroyProviders } from '../providers';

export const CHAIN_ENDPOINTS = Symbol('CHAIN_ENDPOINTS');

/** JSON-RPC providers of the enabled networks for a Nest app, closed on shutdown. */
@Injectable()
export class ChainProviders implements OnApplicationShutdown {
  readonly byNetwork: Map<Network, JsonRpcProvider>;
  constructor(@Inject(CHAIN_ENDPOINTS) endpoints: readonly NetworkEndpoint[]) {
    this.byNetwork = createProviders(endpoints);
  }
  async onApplicationShutdown(): Promise<void> {
    await destroyProviders(this.byNetwork);
  }
}

export function chainProviders(endpoints: readonly NetworkEndpoint[]): Provider[] {
  return [{ provide: CHAIN_ENDPOINTS, useValue: endpoints }, ChainProviders];
}
