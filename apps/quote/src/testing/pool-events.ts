/**
 * Test helper: a JetStream stream of its own (unique name and subject prefix) and a publisher of
 * PoolStateChanged events as the indexer sends them, for pools read from the chain. `publish`
 * follows each state with an IndexedHead at its block (no hash) so the graph applies it at once;
 * `publishBatch` sends several states and one head, as the indexer does after a batch.
 */
import { connect, type JetStreamClient, type NatsConnection } from 'nats';
import { CHAIN_EVENT_SUBJECTS, IndexedHead, PoolStateChanged } from '@tokensvc/messages';
import type { Network } from '@tokensvc/domain';
import type { ChainPool } from './chain-pools';

export class TestPoolEvents {
  private heads = 0;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    readonly stream: string,
    readonly prefix: string,
  ) {}

  static async create(natsUrl: string, label: string): Promise<TestPoolEvents> {
    const suffix = `${label}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
    const stream = `QUOTE_TEST_${suffix}`.toUpperCase();
    const prefix = `qt-${suffix}`.toLowerCase();
    const nc = await connect({ servers: natsUrl });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: stream, subjects: [`${prefix}.>`] });
    return new TestPoolEvents(nc, nc.jetstream(), stream, prefix);
  }

  async publish(network: Network, pool: ChainPool, position: { block: number; logIndex: number }, restored = false): Promise<void> {
    await this.poolState(network, pool, position, restored);
    await this.head(network, position.block, '');
  }

  /** The states of one batch, then its head (block and hash). */
  async publishBatch(
    network: Network,
    pools: readonly ChainPool[],
    head: { block: number; hash: string; reorgEpoch?: number },
  ): Promise<void> {
    for (const [i, p] of pools.entries()) await this.poolState(network, p, { block: head.block, logIndex: i }, false);
    await this.head(network, head.block, head.hash, head.reorgEpoch);
  }

  async head(network: Network, block: number, hash: string, reorgEpoch = 0): Promise<void> {
    const msg: IndexedHead = { network, blockNumber: String(block), blockHash: hash, reorgEpoch };
    await this.js.publish(
      CHAIN_EVENT_SUBJECTS.indexedHead(network, this.prefix),
      new TextEncoder().encode(JSON.stringify(IndexedHead.toJSON(msg))),
      { msgID: `${network}:head:${block}:${hash}:${reorgEpoch}:${++this.heads}` },
    );
  }

  private async poolState(
    network: Network,
    pool: ChainPool,
    position: { block: number; logIndex: number },
    restored: boolean,
  ): Promise<void> {
    const msg: PoolStateChanged = {
      network,
      pool: pool.address,
      platform: pool.platform,
      family: pool.family,
      token0: pool.token0,
      token1: pool.token1,
      fee: pool.fee,
      reserve0: pool.reserve0.toString(),
      reserve1: pool.reserve1.toString(),
      sqrtPriceX96: pool.sqrtPriceX96?.toString() ?? '',
      liquidity: pool.liquidity?.toString() ?? '',
      tick: pool.tick ?? 0,
      blockNumber: String(position.block),
      logIndex: position.logIndex,
      restored,
      tickSpacing: pool.tickSpacing ?? 0,
    };
    await this.js.publish(
      CHAIN_EVENT_SUBJECTS.poolState(network, this.prefix),
      new TextEncoder().encode(JSON.stringify(PoolStateChanged.toJSON(msg))),
      { msgID: `${network}:${pool.address}:${position.block}:${position.logIndex}:${restored}` },
    );
  }

  async dispose(): Promise<void> {
    const jsm = await this.nc.jetstreamManager();
    await jsm.streams.delete(this.stream).catch(() => undefined);
    await this.nc.drain();
  }
}
