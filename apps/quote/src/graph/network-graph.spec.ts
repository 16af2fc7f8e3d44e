import type { PoolStateChanged } from '@tokensvc/messages';
import type { V3Pool } from '@tokensvc/routing';
import { withNative } from './liquidity-graphs';
import { NetworkGraph, type PoolUpdate } from './network-graph';
import { updateFromEvent } from './pool-codec';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const POOL = '0x0000000000000000000000000000000000000001';

function v2(reserve0: bigint, block: number, logIndex = 0, restored = false): PoolUpdate {
  return {
    pool: { family: 'uniswap-v2', shape: 'constant-product', address: POOL, token0: A, token1: B, fee: 3000, reserve0, reserve1: 1000n },
    platform: 'uniswap-v2',
    position: { block, logIndex },
    restored,
  };
}

function event(overrides: Partial<PoolStateChanged>): PoolStateChanged {
  return {
    network: 'ethereum',
    pool: POOL,
    platform: 'uniswap-v3',
    family: 'uniswap-v3',
    token0: A,
    token1: B,
    fee: 500,
    reserve0: '0',
    reserve1: '0',
    sqrtPriceX96: '79228162514264337593543950336',
    liquidity: '5000',
    tick: 0,
    blockNumber: '10',
    logIndex: 3,
    restored: false,
    tickSpacing: 10,
    ...overrides,
  };
}

describe('NetworkGraph updates', () => {
  it('applies only states newer than the one held, by (block, log index)', () => {
    const g = new NetworkGraph('ethereum');
    expect(g.applyPool(v2(100n, 10, 5))).toBe('added');
    expect(g.applyPool(v2(200n, 10, 5))).toBe('stale'); // same position: a re-delivery
    expect(g.applyPool(v2(300n, 10, 4))).toBe('stale');
    expect(g.applyPool(v2(400n, 9, 9))).toBe('stale');
    expect(g.pool(POOL)?.pool).toMatchObject({ reserve0: 100n });
    expect(g.applyPool(v2(500n, 10, 6))).toBe('updated');
    expect(g.applyPool(v2(600n, 11, 0))).toBe('updated');
    expect(g.pool(POOL)?.pool).toMatchObject({ reserve0: 600n });
    expect(g.pool(POOL)?.position).toEqual({ block: 11, logIndex: 0 });
  });

  it('a restored state (reorg rollback) replaces the held one even though it is older', () => {
    const g = new NetworkGraph('ethereum');
    g.applyPool(v2(100n, 20));
    expect(g.applyPool(v2(50n, 15, 0, true))).toBe('updated');
    expect(g.pool(POOL)?.pool).toMatchObject({ reserve0: 50n });
    expect(g.pool(POOL)?.position.block).toBe(15);
    // and later states apply on top of it again
    expect(g.applyPool(v2(70n, 16))).toBe('updated');
  });

  it('keeps a V3 pool’s ticks across events (which carry none) until they are re-read', () => {
    const g = new NetworkGraph('ethereum');
    g.applyPool(updateFromEvent(event({ blockNumber: '10' }))!);
    g.setTicks(POOL, [
      { index: 60, liquidityNet: -5n },
      { index: -60, liquidityNet: 5n },
    ]);
    const before = g.version;
    g.applyPool(updateFromEvent(event({ blockNumber: '11', liquidity: '7000', tick: 5 }))!);
    const pool = g.pool(POOL)!.pool as V3Pool;
    expect(pool.liquidity).toBe(7000n);
    expect(pool.tick).toBe(5);
    expect(pool.ticks.map((t) => t.index)).toEqual([-60, 60]);
    expect(g.version).toBeGreaterThan(before);
  });

  it('holds pool states until their batch’s head, then applies them and moves the head in one step', () => {
    const g = new NetworkGraph('ethereum');
    g.applyPool(v2(100n, 10));
    g.setHead({ blockNumber: 10, blockHash: '0x10', reorgEpoch: 0 });
    g.queuePool(v2(200n, 11));
    const before = g.snapshot();
    expect(before.pools.get(POOL)).toMatchObject({ reserve0: 100n });
    expect(before.head).toEqual({ blockNumber: 10, blockHash: '0x10', reorgEpoch: 0 });
    expect(g.pendingCount).toBe(1);
    expect(g.applyHead({ blockNumber: 12, blockHash: '0x12', reorgEpoch: 0 })).toHaveLength(1);
    expect(g.snapshot()).toMatchObject({ head: { blockNumber: 12, blockHash: '0x12' } });
    expect(g.snapshot().pools.get(POOL)).toMatchObject({ reserve0: 200n });
    // a snapshot taken earlier is not reached by later states
    expect(before.pools.get(POOL)).toMatchObject({ reserve0: 100n });
    // a replayed older head applies nothing new and keeps the head; a rollback's (higher epoch) may go back
    g.queuePool(v2(150n, 10));
    expect(g.applyHead({ blockNumber: 10, blockHash: '0x10', reorgEpoch: 0 })).toHaveLength(0);
    expect(g.head.blockNumber).toBe(12);
    g.queuePool(v2(90n, 9, 0, true));
    g.applyHead({ blockNumber: 9, blockHash: '0x09', reorgEpoch: 1 });
    expect(g.head).toEqual({ blockNumber: 9, blockHash: '0x09', reorgEpoch: 1 });
    expect(g.pool(POOL)?.pool).toMatchObject({ reserve0: 90n });
  });

  it('decodes pool events of both families and skips unknown ones', () => {
    expect(
      updateFromEvent(event({ family: 'uniswap-v2', reserve0: '12', reserve1: '34', sqrtPriceX96: '', liquidity: '', tickSpacing: 0 })),
    ).toEqual({
      pool: {
        family: 'uniswap-v2',
        shape: 'constant-product',
        address: POOL,
        token0: A,
        token1: B,
        fee: 500,
        reserve0: 12n,
        reserve1: 34n,
      },
      platform: 'uniswap-v3',
      position: { block: 10, logIndex: 3 },
      restored: false,
    });
    expect(updateFromEvent(event({}))?.pool).toMatchObject({ family: 'uniswap-v3', tickSpacing: 10, liquidity: 5000n, tick: 0, ticks: [] });
    expect(updateFromEvent(event({ family: 'curve' }))).toBeUndefined();
  });

  it('always knows the native token, priced like its wrapper when the indexer has no price', () => {
    const weth = {
      address: A,
      symbol: 'WETH',
      name: 'WETH',
      decimals: 18,
      family: 'basic',
      platform: 'basic',
      underlying: [],
      poolAddress: null,
      priceUsd: 3000,
    };
    const tokens = withNative([weth], 'ethereum', A);
    expect(tokens.find((t) => t.address === '0x0000000000000000000000000000000000000000')).toMatchObject({
      symbol: 'ETH',
      family: 'native',
      priceUsd: 3000,
      decimals: 18,
    });
  });
});
