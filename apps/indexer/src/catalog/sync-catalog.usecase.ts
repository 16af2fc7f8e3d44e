import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { assertChainId, assertChainIdOfEach, ChainProviders, loadPlatforms } from '@tokensvc/chain';
import type { CommonConfig } from '@tokensvc/config';
import { NETWORK_INFO } from '@tokensvc/domain';
import { CatalogRepository } from '@tokensvc/persistence';
import { SERVICE_CONFIG } from '../config.token';

/**
 * At boot: checks each enabled network's RPC serves the right chain, then writes the networks and
 * their platforms (from the platform registry) in one transaction.
 */
@Injectable()
export class SyncCatalogUseCase implements OnApplicationBootstrap {
  private readonly logger = new Logger(SyncCatalogUseCase.name);
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: CommonConfig,
    private readonly chains: ChainProviders,
    private readonly ds: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.execute();
  }

  async execute(): Promise<void> {
    const networks = this.config.networks.map((e) => e.network);
    await Promise.all(networks.map((n) => assertChainId(n, this.chains.byNetwork.get(n)!)));
    // The other URLs of a network list too (the indexer reads from all of them).
    await Promise.all(
      this.config.networks.filter((e) => (e.rpcUrls?.length ?? 0) > 1).map((e) => assertChainIdOfEach(e.network, e.rpcUrls)),
    );
    const platforms = loadPlatforms(this.config, networks);
    await new CatalogRepository(this.ds).syncCatalog(
      networks.map((n) => ({ network: n, chainId: NETWORK_INFO[n].chainId, name: NETWORK_INFO[n].name })),
      platforms.map((p) => ({
        network: p.network,
        platform: p.slug,
        name: p.name,
        image: p.image,
        family: p.family,
        category: p.category,
        addresses: { ...p.addresses },
      })),
    );
    this.logger.log(`catalog synced: ${networks.length} networks, ${platforms.length} platforms`);
  }
}
