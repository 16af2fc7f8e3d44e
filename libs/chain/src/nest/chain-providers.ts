import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { JsonRpcProvider } from 'ethers';
import type { NetworkEndpoint } from '@tokensvc/config';
import type { Network } from '@tokensvc/domain';
import { createProviders, destroyProviders } from '../providers';
import { JsonRpcClient } from '../rpc/json-rpc-client';

export const CHAIN_ENDPOINTS = Symbol('CHAIN_ENDPOINTS');

/**
 * JSON-RPC access to the enabled networks for a Nest app: `rpc`, the project's client over every
 * URL of RPC_URL_<NETWORK> (failover, health, caps, 429s, RPC_MAX_RPS_<NETWORK>), for reads; and
 * `byNetwork`, an ethers provider on the first URL, for what needs ethers. Closed on shutdown.
 */
@Injectable()
export class ChainProviders implements OnApplicationShutdown {
  readonly byNetwork: Map<Network, JsonRpcProvider>;
  readonly rpc: Map<Network, JsonRpcClient>;
  constructor(@Inject(CHAIN_ENDPOINTS) endpoints: readonly NetworkEndpoint[]) {
    this.byNetwork = createProviders(endpoints);
    this.rpc = new Map(endpoints.map((e) => [e.network, new JsonRpcClient([...e.rpcUrls], { timeoutMs: 10_000, maxRps: e.maxRps })]));
  }
  async onApplicationShutdown(): Promise<void> {
    await destroyProviders(this.byNetwork);
  }
}

export function chainProviders(endpoints: readonly NetworkEndpoint[]): Provider[] {
  return [{ provide: CHAIN_ENDPOINTS, useValue: endpoints }, ChainProviders];
}
