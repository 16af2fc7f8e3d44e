import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JsonRpcClient } from '@tokensvc/chain';
import type { CommonConfig } from '@tokensvc/config';
import type { Network } from '@tokensvc/domain';
import { SERVICE_CONFIG } from '../config.token';
import type { DecodedBatch } from '../pipeline/decoded-batch';
import type { DerivationStage, SqlTx } from '../pipeline/derivation.port';
import { DEFAULT_DERIVE_OPTIONS, DERIVE_OPTIONS, type DeriveOptions } from './derive-options';
import { chainOrder, deriveBatch } from './engine/derive-batch';
import { NetworkCache } from './engine/network-cache';
import { rebuildCandles, writeDerived } from './engine/write-derived';
import { refreshHeadState, type DebtTokenBook } from './head/refresh-head';
import { deleteActivitiesAbove } from './repo/activities.repo';
import { deleteCandlesAbove } from './repo/candles.repo';
import { deletePointsAbove } from './repo/points.repo';
import { blockTime } from './repo/registry.repo';
import { refreshTokenMetrics, restoreTokenStates } from './repo/token-state.repo';
import { withTransaction } from './repo/transaction';

/**
 * The derivation stage of the indexer: prices, token state, state points, candles and activities
 * from each decoded batch, in the pipeline's transaction. See README.md for the definitions.
 */
@Injectable()
export class Deriver implements DerivationStage {
  private readonly logger = new Logger(Deriver.name);
  private readonly options: DeriveOptions;
  private readonly cache: NetworkCache;
  private readonly clients = new Map<Network, JsonRpcClient>();
  private readonly debtTokens: DebtTokenBook = new Map();

  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: CommonConfig,
    @Optional() private readonly ds?: DataSource,
    @Optional() @Inject(DERIVE_OPTIONS) options?: Partial<DeriveOptions>,
  ) {
    this.options = { ...DEFAULT_DERIVE_OPTIONS, ...options };
    this.cache = new NetworkCache(this.options);
  }

  async applyBatch(tx: SqlTx, batch: DecodedBatch): Promise<void> {
    // A range without stored blocks has nothing to derive (and no time to measure windows at).
    if (batch.blocks.length === 0 && chainOrder(batch).length === 0) return this.cache.skip(batch);
    const net = await this.cache.prepare(tx, batch);
    try {
      const out = deriveBatch(net, batch, this.options);
      await writeDerived(tx, out, net.volumesByKey());
      const now = batch.blocks.reduce((m, b) => Math.max(m, b.timestamp), -Infinity);
      if (Number.isFinite(now)) {
        net.pruneVolumes(now);
        await refreshTokenMetrics(tx, batch.network, now);
      }
    } catch (e) {
      this.cache.drop(batch.network);
      throw e;
    }
  }

  async rollback(tx: SqlTx, network: Network, ancestor: number): Promise<void> {
    this.cache.drop(network);
    await deletePointsAbove(tx, network, ancestor);
    await deleteActivitiesAbove(tx, network, ancestor);
    await rebuildCandles(tx, await deleteCandlesAbove(tx, network, ancestor));
    await restoreTokenStates(tx, network, ancestor);
    const now = await blockTime(tx, network, ancestor);
    if (now !== undefined) await refreshTokenMetrics(tx, network, now);
  }

  /** Call between batches of the network (not while one of its batch transactions is open). */
  async refreshHead(network: Network, blockNumber: number): Promise<void> {
    const rpc = this.rpc(network);
    const cached = this.cache.validAt(network, blockNumber);
    // Dropped first: the refresh mutates the working set before its transaction commits.
    this.cache.drop(network);
    const { net, changed } = await withTransaction(this.ds, this.config.databaseUrl, (tx) => refreshHeadState(tx, rpc, network, blockNumber, this.options, this.debtTokens, cached));
    net.asOfBlock = blockNumber;
    this.cache.keep(net);
    this.logger.debug(`head refresh ${network}@${blockNumber}: ${changed} token states corrected`);
  }

  private rpc(network: Network): JsonRpcClient {
    let client = this.clients.get(network);
    if (!client) {
      const endpoint = this.config.networks.find((n) => n.network === network);
      if (!endpoint) throw new Error(`refreshHead(${network}): no RPC URL configured for ${network}`);
      client = new JsonRpcClient(endpoint.rpcUrl);
      this.clients.set(network, client);
    }
    return client;
  }
}
