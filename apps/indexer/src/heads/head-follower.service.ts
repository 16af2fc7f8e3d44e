import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Gauge } from 'prom-client';
import type { CommonConfig } from '@tokensvc/config';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { ChainProviders } from '@tokensvc/chain';
import { SERVICE_CONFIG } from '../config.token';

/** Follows each network's head block number (polling at the block time) and exports it as a metric. */
@Injectable()
export class HeadFollower implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HeadFollower.name);
  private readonly timers: NodeJS.Timeout[] = [];
  readonly heads = new Map<Network, number>();
  static readonly gauge = new Gauge({ name: 'indexer_chain_head_block', help: 'latest block number seen per network', labelNames: ['network'], registers: [] });

  constructor(@Inject(SERVICE_CONFIG) private readonly config: CommonConfig, private readonly chains: ChainProviders) {}

  onApplicationBootstrap(): void {
    for (const { network } of this.config.networks) {
      const poll = async (): Promise<void> => {
        try {
          const head = await this.chains.byNetwork.get(network)!.getBlockNumber();
          this.heads.set(network, head);
          HeadFollower.gauge.set({ network }, head);
        } catch (e) {
          this.logger.warn(`${network}: head poll failed: ${(e as Error).message}`);
        }
      };
      void poll();
      const t = setInterval(() => void poll(), Math.max(500, Math.min(NETWORK_INFO[network].blockTimeMs, 4000)));
      t.unref();
      this.timers.push(t);
    }
  }

  onApplicationShutdown(): void {
    this.timers.forEach(clearInterval);
  }
}
