import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Pool } from 'pg';
import { JsonRpcClient } from '@tokensvc/chain';
import type { CommonConfig } from '@tokensvc/config';
import type { Network } from '@tokensvc/domain';
import { PG_POOL, SERVICE_CONFIG } from '../config.token';
import type { DecodedBatch } from '../model/decoded-batch';
import type { ApplyOptions, DerivationStage, PrecomputedBatch } from '../model/derivation.port';
import type { SqlTx } from '../model/sql-tx';
import { TimeSlice } from '../model/time-slice';
import { DEFAULT_DERIVE_OPTIONS, DERIVE_OPTIONS, type DeriveOptions } from './derive-options';
import { deriveBatchSliced, type BatchOutput } from './engine/derive-batch';
import { NetworkCache } from './engine/network-cache';
import { unknownReferences, type NetworkState } from './engine/network-state';
import { batchCandles, rebuildCandles, writeDerived } from './engine/write-derived';
import type { Candle } from './math/candles';
import { refreshHeadState, type DebtTokenBook } from './head/refresh-head';
import { activitiesPayload, deleteActivitiesAbove } from './repo/activities.repo';
import { deleteCandlesAbove } from './repo/candles.repo';
import { deletePointsAbove } from './repo/points.repo';
import { deleteSwapVolumesAbove } from './repo/swap-volumes.repo';
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
    @Optional() @Inject(PG_POOL) private readonly pool?: Pool,
    @Optional() @Inject(DERIVE_OPTIONS) options?: Partial<DeriveOptions>,
  ) {
    this.options = { ...DEFAULT_DERIVE_OPTIONS, ...options };
    this.cache = new NetworkCache(this.options);
  }

  async applyBatch(tx: SqlTx, batch: DecodedBatch, opts: ApplyOptions = {}): Promise<void> {
    // A range without stored blocks has nothing to derive (and no time to measure windows at).
    if (batch.blocks.length === 0 && eventCount(batch) === 0) {
      opts.onComputed?.();
      return this.cache.skip(batch);
    }
    const pre =
      opts.precomputed instanceof Precomputed &&
      opts.precomputed.batch === batch &&
      this.cache.current(batch.network) === opts.precomputed.net
        ? opts.precomputed
        : undefined;
    const net = pre?.net ?? (await this.cache.prepare(tx, batch));
    try {
      let derived = pre?.derived;
      if (!derived) {
        const cpu = (): Promise<Derived> => this.compute(net, batch, tx.copy !== undefined);
        // First in line on node's thread (the pipeline's background work waits).
        derived = opts.foreground ? await opts.foreground.hold(cpu) : await cpu();
      }
      opts.onComputed?.();
      const { out, candles, activities } = derived;
      await writeDerived(tx, out, candles, activities);
      const now = lastTime(batch);
      if (Number.isFinite(now)) {
        for (const p of out.points) net.metricsTouched.add(p.tokenKey);
        for (const k of batch.newTokens) net.metricsTouched.add(k);
        // During a backfill the volumes and paid metrics of all tokens (one query over their
        // activities and points) are refreshed once a minute and at its end, not every batch.
        const due = !opts.backfilling || net.metricsTime === undefined || Date.now() - net.metricsAt >= this.options.backfillMetricsEveryMs;
        if (due) {
          // After a (re)load nothing says when the stored metrics were computed: all tokens then.
          const scope = net.metricsTime === undefined ? undefined : { since: net.metricsTime, touched: [...net.metricsTouched] };
          await refreshTokenMetrics(tx, batch.network, now, scope);
          net.metricsTime = now;
          net.metricsAt = Date.now();
          net.metricsTouched.clear();
        }
      }
    } catch (e) {
      this.cache.drop(batch.network);
      throw e;
    }
  }

  /**
   * The batch's CPU phase ahead of its transaction: when the working set in memory is valid right
   * before the batch and the batch brings no token, reserve or pool it does not know (so nothing
   * needs the database). The pipeline calls it in batch order while the previous batch is being
   * written; applyBatch then only writes.
   */
  async precompute(batch: DecodedBatch): Promise<PrecomputedBatch | undefined> {
    if (batch.blocks.length === 0 && eventCount(batch) === 0) return undefined;
    const net = this.cache.validAt(batch.network, batch.fromBlock - 1);
    if (!net) return undefined;
    const unknown = unknownReferences(net, batch);
    if (unknown.tokens.size > 0 || unknown.pools.length > 0) return undefined;
    try {
      return new Precomputed(batch, net, await this.compute(net, batch, true));
    } catch (e) {
      this.cache.drop(batch.network);
      throw e;
    }
  }

  /** Derives the batch (advancing the working set to its end) and builds what its writes need. */
  private async compute(net: NetworkState, batch: DecodedBatch, copy: boolean): Promise<Derived> {
    const slice = new TimeSlice();
    const out = await deriveBatchSliced(net, batch, this.options, slice);
    // Candle volumes as of the end of this batch (before a later batch adds to them).
    const candles = batchCandles(out, net.volumesByKey());
    const now = lastTime(batch);
    if (Number.isFinite(now)) net.pruneVolumes(now);
    const activities = copy && out.activities.length > 0 ? await activitiesPayload(out.activities, slice) : undefined;
    return { out, candles, activities };
  }

  async rollback(tx: SqlTx, network: Network, ancestor: number): Promise<void> {
    this.cache.drop(network);
    await deletePointsAbove(tx, network, ancestor);
    await deleteActivitiesAbove(tx, network, ancestor);
    await deleteSwapVolumesAbove(tx, network, ancestor);
    await rebuildCandles(tx, await deleteCandlesAbove(tx, network, ancestor));
    await restoreTokenStates(tx, network, ancestor);
    const now = await blockTime(tx, network, ancestor);
    if (now !== undefined) await refreshTokenMetrics(tx, network, now);
  }

  /**
   * Call between batches of the network (not while one of its batch transactions is open). It
   * writes only the tokens' current state: the working set in memory stays valid.
   */
  async refreshHead(network: Network, blockNumber: number): Promise<void> {
    const rpc = this.rpc(network);
    const written = await withTransaction(this.pool, this.config.databaseUrl, (tx) =>
      refreshHeadState(tx, rpc, network, blockNumber, this.options, this.debtTokens),
    );
    this.logger.debug(`head refresh ${network}@${blockNumber}: ${written} token states corrected`);
  }

  private rpc(network: Network): JsonRpcClient {
    let client = this.clients.get(network);
    if (!client) {
      const endpoint = this.config.networks.find((n) => n.network === network);
      if (!endpoint) throw new Error(`refreshHead(${network}): no RPC URL configured for ${network}`);
      // every URL of the network (tests hand in endpoints with rpcUrl only)
      client = new JsonRpcClient(endpoint.rpcUrls?.length ? endpoint.rpcUrls : endpoint.rpcUrl);
      this.clients.set(network, client);
    }
    return client;
  }
}

interface Derived {
  out: BatchOutput;
  candles: Candle[];
  /** the activities' COPY payload */
  activities?: Buffer[];
}

class Precomputed implements PrecomputedBatch {
  constructor(
    readonly batch: DecodedBatch,
    readonly net: NetworkState,
    readonly derived: Derived,
  ) {}
}

/** the latest block time of the batch (the "now" of windows), -Infinity without blocks */
function lastTime(b: DecodedBatch): number {
  return b.blocks.reduce((m, x) => Math.max(m, x.timestamp), -Infinity);
}

function eventCount(b: DecodedBatch): number {
  return (
    b.transfers.length +
    b.poolStates.length +
    b.swaps.length +
    b.liquidity.length +
    b.vaultFlows.length +
    b.lending.length +
    b.reserveRates.length
  );
}
