import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { DecodedBatch } from '../../model/decoded-batch';
import { DEFAULT_DERIVE_OPTIONS } from '../derive-options';
import { RAY, rayRateToApy } from '../math/ray';
import { batchCandles } from './write-derived';
import { deriveBatch } from './derive-batch';
import { ledgerFromAux, ledgerToAux, roleOf, type TokenMeta } from './model';
import { NetworkState, unknownReferences } from './network-state';

const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;
const WETH = A(1);
const USDC = A(2);
const PAIR = A(3);
const VAULT = A(4);
const AUSDC = A(5);
const MARKET = A(6);
const ALICE = A(7);
const BOB = A(8);
const E18 = 10n ** 18n;
const E6 = 10n ** 6n;
const T0 = Date.UTC(2024, 2, 10, 10) / 1000;

function meta(
  address: string,
  family: string,
  symbol: string,
  decimals: number,
  underlying: string[] = [],
  poolAddress: string | null = null,
): TokenMeta {
  return {
    key: `ethereum:${address}`,
    address,
    family,
    platform: family,
    symbol,
    decimals,
    underlying,
    poolAddress,
    createdTime: T0 - 86_400,
    role: roleOf(family),
  };
}

function world(): NetworkState {
  const net = new NetworkState('ethereum', 9, DEFAULT_DERIVE_OPTIONS);
  for (const m of [
    meta(ZERO_ADDRESS, 'native', 'ETH', 18),
    meta(WETH, 'basic', 'WETH', 18),
    meta(USDC, 'basic', 'USDC', 6),
    meta(PAIR, 'uniswap-v2', 'UNI-V2', 18, [WETH, USDC], PAIR),
    meta(VAULT, 'erc4626', 'gtWETH', 18, [WETH]),
    meta(AUSDC, 'aave-v3', 'aUSDC', 6, [USDC], MARKET),
  ])
    net.tokens.set(m.address, m);
  net.pools.set(PAIR, { address: PAIR, family: 'uniswap-v2', token0: WETH, token1: USDC, fee: 3000 });
  net.reindex();
  return net;
}

const pos = (blockNumber: number, logIndex: number): { blockNumber: number; logIndex: number; txHash: string } => ({
  blockNumber,
  logIndex,
  txHash: `0x${blockNumber}${logIndex}`,
});
const empty = (from: number, to: number): DecodedBatch => ({
  network: 'ethereum',
  fromBlock: from,
  toBlock: to,
  blocks: [],
  transfers: [],
  poolStates: [],
  swaps: [],
  liquidity: [],
  vaultFlows: [],
  lending: [],
  reserveRates: [],
  newTokens: [],
});

function batch(): DecodedBatch {
  const b = empty(10, 11);
  b.blocks = [
    { number: 10, hash: '0x10', parentHash: '0x9', timestamp: T0 },
    { number: 11, hash: '0x11', parentHash: '0x10', timestamp: T0 + 3_600 },
  ];
  // block 10: liquidity added to the pair (Uniswap V2 mints MINIMUM_LIQUIDITY to the zero address)
  b.transfers.push({ ...pos(10, 0), token: PAIR, from: ZERO_ADDRESS, to: ZERO_ADDRESS, value: 1_000n });
  b.transfers.push({ ...pos(10, 1), token: PAIR, from: ZERO_ADDRESS, to: ALICE, value: 1_000n * E18 });
  b.poolStates.push({ ...pos(10, 2), pool: PAIR, family: 'uniswap-v2', reserve0: 100n * E18, reserve1: 300_000n * E6 });
  b.liquidity.push({
    ...pos(10, 3),
    pool: PAIR,
    family: 'uniswap-v2',
    kind: 'deposit',
    account: ALICE,
    amount0: 100n * E18,
    amount1: 300_000n * E6,
    shares: 1_000n * E18,
  });
  // block 11: a swap WETH -> USDC, a vault deposit, an Aave supply at index 1.1
  b.poolStates.push({ ...pos(11, 0), pool: PAIR, family: 'uniswap-v2', reserve0: 101n * E18, reserve1: 297_000n * E6 });
  b.swaps.push({
    ...pos(11, 1),
    pool: PAIR,
    family: 'uniswap-v2',
    account: BOB,
    tokenIn: WETH,
    tokenOut: USDC,
    amountIn: E18,
    amountOut: 3_000n * E6,
  });
  b.transfers.push({ ...pos(11, 2), token: WETH, from: BOB, to: VAULT, value: 10n * E18 });
  b.transfers.push({ ...pos(11, 3), token: VAULT, from: ZERO_ADDRESS, to: BOB, value: 10n * E18 });
  b.vaultFlows.push({ ...pos(11, 4), vault: VAULT, kind: 'deposit', account: BOB, assets: 10n * E18, shares: 10n * E18 });
  b.reserveRates.push({
    ...pos(11, 5),
    market: MARKET,
    asset: USDC,
    liquidityRate: RAY / 20n,
    variableBorrowRate: RAY / 10n,
    liquidityIndex: (RAY * 11n) / 10n,
    variableBorrowIndex: RAY,
  });
  b.transfers.push({ ...pos(11, 6), token: USDC, from: ALICE, to: AUSDC, value: 1_100n * E6 });
  b.lending.push({ ...pos(11, 7), market: MARKET, asset: USDC, kind: 'deposit', account: ALICE, amount: 1_100n * E6 });
  return b;
}

describe('deriving a batch', () => {
  const net = world();
  const out = deriveBatch(net, batch(), DEFAULT_DERIVE_OPTIONS);
  const last = (address: string) => [...out.points].reverse().find((p) => p.tokenKey === `ethereum:${address}`)!;

  it('prices the pool tokens per block from the stablecoin and the native token as WETH', () => {
    const weth = out.points.filter((p) => p.tokenKey === `ethereum:${WETH}`).map((p) => [p.blockNumber, p.price]);
    expect(weth).toEqual([
      [10, 3000],
      [11, 297_000 / 101],
    ]);
    expect(last(ZERO_ADDRESS).price).toBe(297_000 / 101);
    expect(last(USDC).price).toBe(1);
    expect(last(WETH).liquidity).toBeCloseTo(297_000, 6);
  });

  it('tracks the LP supply from mints, keeps the zero-address mint out of circulation, prices the LP', () => {
    const lp = last(PAIR);
    expect(lp.totalSupply).toBe(1_000n * E18 + 1_000n);
    expect(lp.circulatingSupply).toBe(1_000n * E18);
    expect(lp.reserves).toEqual([101n * E18, 297_000n * E6]);
    expect(lp.liquidity).toBeCloseTo(594_000, 6);
    expect(lp.price).toBeCloseTo(594_000 / 1_000, 6);
    expect(lp.apy).toBeGreaterThan(0);
  });

  it('values the vault from its asset balance and share supply', () => {
    const v = last(VAULT);
    expect(v.reserves).toEqual([10n * E18]);
    expect(v.pricePerShare).toBe('1');
    expect(v.price).toBeCloseTo(297_000 / 101, 9);
  });

  it('keeps Aave supply in scaled units at the reported index', () => {
    const a = last(AUSDC);
    expect(a.ledger.scaledSupply).toBe(1_000n * E6);
    expect(a.totalSupply).toBe(1_100n * E6);
    expect(a.reserves).toEqual([1_100n * E6]);
    expect(a.apy).toBe(rayRateToApy(RAY / 20n));
    expect(a.borrowApy).toBe(rayRateToApy(RAY / 10n));
    expect(ledgerFromAux(ledgerToAux(a.ledger), a.totalSupply)).toEqual(a.ledger);
  });

  it('records activities with direction, USD at the block price and Flow/Position amounts', () => {
    expect(out.activities.map((a) => [a.type, a.tokenKey, a.blockNumber])).toEqual([
      ['deposit', `ethereum:${PAIR}`, 10],
      ['swap', `ethereum:${PAIR}`, 11],
      ['deposit', `ethereum:${VAULT}`, 11],
      ['deposit', `ethereum:${AUSDC}`, 11],
    ]);
    const [lpDeposit, swap, vault, supply] = out.activities;
    expect(lpDeposit!.amounts.map((x) => [x.symbol, x.amount, x.amountUsd])).toEqual([
      ['WETH', (100n * E18).toString(), '300000'],
      ['USDC', (300_000n * E6).toString(), '300000'],
    ]);
    expect(swap).toMatchObject({
      direction: 0,
      inputToken: `ethereum:${WETH}`,
      outputToken: `ethereum:${USDC}`,
      outputUsd: 3000,
      volumeRaw: (E18 * (1_000n * E18 + 1_000n)) / (2n * 101n * E18),
    });
    expect(swap!.inputUsd).toBeCloseTo(297_000 / 101, 9);
    expect(vault).toMatchObject({ inputToken: `ethereum:${WETH}`, outputToken: `ethereum:${VAULT}`, volumeRaw: 10n * E18 });
    expect(supply!.amounts).toEqual([{ key: `ethereum:${USDC}`, symbol: 'USDC', amount: '1100000000', amountUsd: '1100' }]);
  });

  it('moves the working set to the end of the batch and writes nothing for a plain transfer', () => {
    expect(net.asOfBlock).toBe(11);
    const next = empty(12, 12);
    next.blocks = [{ number: 12, hash: '0x12', parentHash: '0x11', timestamp: T0 + 7_200 }];
    next.transfers.push({ ...pos(12, 0), token: USDC, from: ALICE, to: BOB, value: 5n * E6 });
    expect(deriveBatch(net, next, DEFAULT_DERIVE_OPTIONS)).toEqual({ points: [], activities: [], swapVolumes: [] });
  });

  it('walks the event lists in chain order even when they are not sorted', () => {
    const shuffled = batch();
    for (const list of [
      shuffled.transfers,
      shuffled.poolStates,
      shuffled.swaps,
      shuffled.liquidity,
      shuffled.vaultFlows,
      shuffled.lending,
      shuffled.reserveRates,
    ])
      list.reverse();
    expect(deriveBatch(world(), shuffled, DEFAULT_DERIVE_OPTIONS)).toEqual(deriveBatch(world(), batch(), DEFAULT_DERIVE_OPTIONS));
  });

  it('refuses events of a block it has no header for', () => {
    const bad = empty(13, 13);
    bad.transfers.push({ ...pos(13, 0), token: USDC, from: ZERO_ADDRESS, to: BOB, value: 1n });
    expect(() => deriveBatch(world(), bad, DEFAULT_DERIVE_OPTIONS)).toThrow('no header for it');
  });
});

describe('swap volume of basic and native tokens', () => {
  const V3 = A(9);
  // WETH at 3,000 USDC: sqrtPriceX96 of the raw price 3,000 x 10^6 / 10^18 (token0 WETH, token1 USDC)
  const sqrtPriceX96 = BigInt(Math.round(Math.sqrt(3e-9) * 2 ** 96));

  function v3World(): { net: NetworkState; out: ReturnType<typeof deriveBatch> } {
    const net = world();
    net.pools.set(V3, { address: V3, family: 'uniswap-v3', token0: WETH, token1: USDC, fee: 500 });
    net.reindex();
    const b = batch();
    b.poolStates.push({
      ...pos(10, 4),
      pool: V3,
      family: 'uniswap-v3',
      reserve0: 50n * E18,
      reserve1: 150_000n * E6,
      sqrtPriceX96,
      liquidity: 10n ** 18n,
    });
    // block 11 also has two swaps in the V3 pool (a pool without a token: no activity)
    b.swaps.push({
      ...pos(11, 8),
      pool: V3,
      family: 'uniswap-v3',
      account: BOB,
      tokenIn: USDC,
      tokenOut: WETH,
      amountIn: 1_500n * E6,
      amountOut: E18 / 2n,
    });
    b.swaps.push({
      ...pos(11, 9),
      pool: V3,
      family: 'uniswap-v3',
      account: ALICE,
      tokenIn: WETH,
      tokenOut: USDC,
      amountIn: E18 / 4n,
      amountOut: 740n * E6,
    });
    // a swap of a pool that is not indexed counts for nothing
    b.swaps.push({
      ...pos(11, 10),
      pool: A(77),
      family: 'uniswap-v3',
      account: ALICE,
      tokenIn: WETH,
      tokenOut: USDC,
      amountIn: E18,
      amountOut: 3_000n * E6,
    });
    return { net, out: deriveBatch(net, b, DEFAULT_DERIVE_OPTIONS) };
  }

  it('counts the swaps of V2 pairs and V3 pools once for each of their two tokens, at the input side, per token and block', () => {
    const { out } = v3World();
    const weth = [...out.points].reverse().find((p) => p.tokenKey === `ethereum:${WETH}` && p.blockNumber === 11)!.price;
    // V2: 1 WETH in; V3: 1,500 USDC in, 0.25 WETH in; all at the block's closing prices
    const cents = Math.round(weth * 100) + 150_000 + Math.round((weth / 4) * 100);
    expect(out.swapVolumes).toEqual([
      { network: 'ethereum', blockNumber: 11, tokenKey: `ethereum:${WETH}`, time: T0 + 3_600, swaps: 3, volumeCents: cents },
      { network: 'ethereum', blockNumber: 11, tokenKey: `ethereum:${USDC}`, time: T0 + 3_600, swaps: 3, volumeCents: cents },
    ]);
    // the V2 swap's activity has the same value as its share of the tokens' volume
    expect(Math.round(out.activities.find((a) => a.type === 'swap')!.volumeUsd * 100)).toBe(Math.round(weth * 100));
    expect(out.activities.filter((a) => a.type === 'swap')).toHaveLength(1);
  });

  it("gives the tokens a point in the block and the volume to their candles (bucket volume, the day's volume, trending)", () => {
    const { net, out } = v3World();
    for (const t of [WETH, USDC]) expect(out.points.some((p) => p.tokenKey === `ethereum:${t}` && p.blockNumber === 11)).toBe(true);
    const candles = batchCandles(out, net.volumesByKey());
    const usdc = candles.find((c) => c.tokenKey === `ethereum:${USDC}` && c.resolution === '1h' && c.bucket === T0 + 3_600)!;
    const volume = out.swapVolumes[1]!.volumeCents / 100;
    expect(usdc).toMatchObject({ volumeUsd: volume, volume1dUsd: volume });
    expect(usdc.trendingScore).toBeCloseTo(volume / usdc.liquidity, 12);
    // the bucket of block 10 (no swap) has none
    expect(candles.find((c) => c.tokenKey === `ethereum:${USDC}` && c.resolution === '1h' && c.bucket === T0)!.volumeUsd).toBe(0);
    // the LP token's candle volume stays its activities' (the liquidity added in block 10 and the swap)
    const lp = candles.find((c) => c.tokenKey === `ethereum:${PAIR}` && c.resolution === '1d')!;
    expect(lp.volumeUsd).toBeCloseTo(600_000 + out.activities.find((a) => a.type === 'swap')!.volumeUsd, 2);
  });
});

describe('references the working set does not know', () => {
  it('lists tokens, Aave reserves and pools a batch uses before they were loaded, once', () => {
    const net = world();
    const b = empty(20, 20);
    b.transfers.push(
      { ...pos(20, 0), token: A(50), from: ALICE, to: BOB, value: 1n },
      { ...pos(20, 1), token: USDC, from: ALICE, to: BOB, value: 1n },
    );
    b.lending.push(
      { ...pos(20, 2), market: MARKET, asset: WETH, kind: 'deposit', account: ALICE, amount: 1n },
      { ...pos(20, 3), market: MARKET, asset: USDC, kind: 'deposit', account: ALICE, amount: 1n },
    );
    b.poolStates.push(
      { ...pos(20, 4), pool: A(51), family: 'uniswap-v3', reserve0: 0n, reserve1: 0n },
      { ...pos(20, 5), pool: PAIR, family: 'uniswap-v2', reserve0: 1n, reserve1: 1n },
    );
    b.newTokens.push(`ethereum:${A(52)}`, `ethereum:${WETH}`);
    const found = unknownReferences(net, b);
    expect(found).toEqual({ tokens: new Set([A(52), A(50), `${MARKET}|${WETH}`]), pools: [A(51)] });
    [...found.tokens, ...found.pools].forEach((a) => net.unregistered.add(a));
    expect(unknownReferences(net, b)).toEqual({ tokens: new Set([A(52)]), pools: [] });
  });
});

describe('thin pools at absurd prices', () => {
  const NEW = A(60);
  const NEW_PAIR = A(61);
  const THIN_V3 = A(62);
  // WETH at 30,000 USDC, ten times the pair's price: sqrtPriceX96 of the raw price 3e-8 (token0 WETH, token1 USDC)
  const sqrtPriceX96 = BigInt(Math.round(Math.sqrt(3e-8) * 2 ** 96));

  function attacked(): NetworkState {
    const net = world();
    net.tokens.set(NEW, meta(NEW, 'basic', 'NEW', 18));
    net.tokens.set(NEW_PAIR, meta(NEW_PAIR, 'uniswap-v2', 'UNI-V2', 18, [NEW, WETH], NEW_PAIR));
    net.pools.set(NEW_PAIR, { address: NEW_PAIR, family: 'uniswap-v2', token0: NEW, token1: WETH, fee: 3000 });
    net.pools.set(THIN_V3, { address: THIN_V3, family: 'uniswap-v3', token0: WETH, token1: USDC, fee: 100 });
    net.reindex();
    return net;
  }

  /** block 12: a $100 WETH/USDC V3 pool at 10x and a NEW/WETH pair holding 1/60 WETH ($50) */
  function attack(): DecodedBatch {
    const b = empty(12, 12);
    b.blocks = [{ number: 12, hash: '0x12', parentHash: '0x11', timestamp: T0 + 7_200 }];
    b.poolStates.push({
      ...pos(12, 0),
      pool: THIN_V3,
      family: 'uniswap-v3',
      reserve0: E18 / 600n,
      reserve1: 50n * E6,
      sqrtPriceX96,
      liquidity: 10n ** 12n,
    });
    b.poolStates.push({ ...pos(12, 1), pool: NEW_PAIR, family: 'uniswap-v2', reserve0: 10n * E18, reserve1: E18 / 60n });
    return b;
  }

  it('moves nothing, and leaves a token with only a thin pool unpriced, its liquidity what the pool holds against it', () => {
    const [plain, net] = [world(), attacked()];
    deriveBatch(plain, batch(), DEFAULT_DERIVE_OPTIONS);
    deriveBatch(net, batch(), DEFAULT_DERIVE_OPTIONS);
    const out = deriveBatch(net, attack(), DEFAULT_DERIVE_OPTIONS);
    expect(net.priceOf(WETH)).toBe(plain.priceOf(WETH));
    const newToken = out.points.find((p) => p.tokenKey === `ethereum:${NEW}`)!;
    expect(newToken.price).toBe(0);
    expect(newToken.liquidity).toBeCloseTo(plain.priceOf(WETH) / 60, 6);
    // the pair's LP token: twice its priced side, not the absurd price
    expect(out.points.find((p) => p.tokenKey === `ethereum:${NEW_PAIR}`)!.liquidity).toBeCloseTo((2 * plain.priceOf(WETH)) / 60, 6);
    // WETH's liquidity grows by its side of the two thin pools at its own price, nothing more
    const weth = out.points.find((p) => p.tokenKey === `ethereum:${WETH}`)!;
    expect(weth.liquidity).toBeCloseTo(plain.states.get(WETH)!.liquidity + plain.priceOf(WETH) * (1 / 600 + 1 / 60), 6);
  });

  it('withholds the price of a token whose pools fell below the floor instead of keeping the last one', () => {
    const net = world();
    deriveBatch(net, batch(), DEFAULT_DERIVE_OPTIONS);
    expect(net.priceOf(WETH)).toBeGreaterThan(2_900);
    const b = empty(12, 12);
    b.blocks = [{ number: 12, hash: '0x12', parentHash: '0x11', timestamp: T0 + 7_200 }];
    // the pair drained to 1 WETH / 3,000 USDC: $6k deep
    b.poolStates.push({ ...pos(12, 0), pool: PAIR, family: 'uniswap-v2', reserve0: E18, reserve1: 3_000n * E6 });
    const out = deriveBatch(net, b, DEFAULT_DERIVE_OPTIONS);
    const weth = out.points.find((p) => p.tokenKey === `ethereum:${WETH}`)!;
    expect(weth).toMatchObject({ price: 0, liquidity: 3_000 });
    // and the native token with it, and nothing values its holdings: the vault's price is 0
    expect(out.points.find((p) => p.tokenKey === `ethereum:${ZERO_ADDRESS}`)!.price).toBe(0);
    expect(out.points.find((p) => p.tokenKey === `ethereum:${VAULT}`)!.price).toBe(0);
  });
});

describe('a Uniswap V4 pool (an id inside the PoolManager, the native coin as currency0)', () => {
  // 1 ETH = 3,000 USDC: sqrtPriceX96 = sqrt(3000e6 / 1e18) * 2^96, reserves counted from its events.
  const V4_POOL = `0x${'ab'.repeat(32)}`;
  const sqrtPriceX96 = BigInt(Math.round(Math.sqrt(3_000e6 / 1e18) * 2 ** 96));
  const net = world();
  net.pools.set(V4_POOL, { address: V4_POOL, family: 'uniswap-v4', token0: ZERO_ADDRESS, token1: USDC, fee: 500 });
  net.reindex();
  const b = empty(10, 10);
  b.blocks = [{ number: 10, hash: '0x10', parentHash: '0x9', timestamp: T0 }];
  b.poolStates.push({ ...pos(10, 0), pool: PAIR, family: 'uniswap-v2', reserve0: 100n * E18, reserve1: 300_000n * E6 });
  const v4State = { reserve0: 50n * E18, reserve1: 150_000n * E6, sqrtPriceX96, liquidity: 10n ** 15n, tick: -198_080 };
  b.poolStates.push({ ...pos(10, 1), pool: V4_POOL, family: 'uniswap-v4', ...v4State });
  const out = deriveBatch(net, b, DEFAULT_DERIVE_OPTIONS);
  const last = (address: string) => [...out.points].reverse().find((p) => p.tokenKey === `ethereum:${address}`)!;

  it("adds its reserves to its tokens' liquidity: USDC's side of both pools, the native coin's of the V4 pool", () => {
    expect(last(USDC).liquidity).toBeCloseTo(300_000 + 150_000, 0);
    expect(last(ZERO_ADDRESS).liquidity).toBeCloseTo(50 * 3_000, -1);
    expect(last(ZERO_ADDRESS).price).toBeCloseTo(3_000, 3);
  });
});
