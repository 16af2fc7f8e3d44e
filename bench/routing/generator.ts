/**
 * Seeded generated liquidity graph for the route-quality bench: hub tokens joined by deep parallel
 * V2 and V3 pools, long-tail tokens hanging off one or two hubs (so tail-to-tail trades need up to
 * three hops), a few thin tail-to-tail pools, and trades from dust to pool-draining sizes.
 */
import { type Pool, type V3Pool, type V3Tick, MAX_TICK, MIN_TICK, getSqrtRatioAtTick } from '@tokensvc/routing';
import { seededRandom } from '@tokensvc/testing';

/** mulberry32 (the hosted-provider emulator's seeded PRNG): small, fast, deterministic. */
export const rng = seededRandom;

export interface BenchToken {
  address: string;
  decimals: number;
  usd: number;
  hub: boolean;
}

export interface Trade {
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  /** fewest pools between the two tokens */
  hops: number;
  /** amount in USD over the USD depth of tokenIn's side of its pools */
  depthFraction: number;
}

export interface BenchGraph {
  tokens: BenchToken[];
  pools: Pool[];
  trades: Trade[];
}

export interface GeneratorOptions {
  seed?: number;
  hubs?: number;
  tails?: number;
  v2Pools?: number;
  v3Pools?: number;
  /** Uniswap V4 pools: concentrated liquidity like V3's, at V4's freer fee and spacing pairs, ids not addresses */
  v4Pools?: number;
  trades?: number;
}

export type Rand = () => number;
export const logUniform = (r: Rand, lo: number, hi: number): number => Math.exp(Math.log(lo) + r() * (Math.log(hi) - Math.log(lo)));
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
export const raw = (usd: number, t: BenchToken): bigint => BigInt(Math.floor((usd / t.usd) * 10 ** t.decimals));
const V3_FEES: ReadonlyArray<[number, number]> = [
  [500, 10],
  [3000, 60],
  [10000, 200],
];
/** V4 pools may take any fee with any spacing: a few of the pairs Uniswap's interface offers. */
const V4_FEES: ReadonlyArray<[number, number]> = [
  [100, 1],
  [500, 10],
  [1000, 20],
  [2500, 50],
  [3000, 60],
];

export function makeTokens(r: Rand, hubs: number, tails: number): BenchToken[] {
  const out: BenchToken[] = [];
  for (let i = 0; i < hubs + tails; i++) {
    const hub = i < hubs;
    out.push({
      address: `0x${(i + 1).toString(16).padStart(40, '0')}`,
      decimals: pick(r, [6, 8, 18, 18]),
      usd: hub ? logUniform(r, 0.5, 60_000) : logUniform(r, 1e-4, 500),
      hub,
    });
  }
  return out;
}

/** token0 < token1 by address, as in the factories. */
function ordered(a: BenchToken, b: BenchToken): [BenchToken, BenchToken] {
  return a.address < b.address ? [a, b] : [b, a];
}

export function v2Pool(r: Rand, id: number, a: BenchToken, b: BenchToken, depthUsd: number): Pool {
  const [t0, t1] = ordered(a, b);
  const noise = 1 + (r() - 0.5) * 0.004;
  return {
    family: 'uniswap-v2',
    shape: 'constant-product',
    address: `v2-${id}`,
    token0: t0.address,
    token1: t1.address,
    fee: pick(r, [3000, 3000, 2500, 500, 10000]),
    reserve0: raw(depthUsd * noise, t0),
    reserve1: raw(depthUsd, t1),
  };
}

/** A V3 pool with one wide and 3-5 concentrated positions around the price: several initialized ticks. */
export function v3Pool(r: Rand, id: number, a: BenchToken, b: BenchToken, depthUsd: number, v4 = false): V3Pool {
  const [t0, t1] = ordered(a, b);
  const [fee, spacing] = pick(r, v4 ? V4_FEES : V3_FEES);
  const price = (((t0.usd / t1.usd) * 10 ** t1.decimals) / 10 ** t0.decimals) * (1 + (r() - 0.5) * 0.004);
  const tick = Math.floor(Math.log(price) / Math.log(1.0001));
  const align = (t: number) =>
    Math.max(Math.ceil(MIN_TICK / spacing), Math.min(Math.floor(MAX_TICK / spacing), Math.floor(t / spacing))) * spacing;
  // L = (token0 virtual amount) * sqrt(price): a position of `usd` depth at the current price
  const liquidityFor = (usd: number) => BigInt(Math.floor((usd / t0.usd) * 10 ** t0.decimals * Math.sqrt(price)));
  const net = new Map<number, bigint>();
  let active = 0n;
  const add = (lower: number, upper: number, l: bigint) => {
    if (lower >= upper) return;
    net.set(lower, (net.get(lower) ?? 0n) + l);
    net.set(upper, (net.get(upper) ?? 0n) - l);
    if (lower <= tick && tick < upper) active += l;
  };
  add(align(tick - 30_000), align(tick + 30_000), liquidityFor(depthUsd * 0.3));
  const positions = 3 + Math.floor(r() * 3);
  for (let i = 0; i < positions; i++) {
    const lower = align(tick - spacing * Math.floor(1 + r() * 60));
    const upper = align(tick + spacing * Math.floor(1 + r() * 60));
    add(lower, upper, liquidityFor(depthUsd * logUniform(r, 0.5, 5)));
  }
  const ticks: V3Tick[] = [...net].sort(([x], [y]) => x - y).map(([index, liquidityNet]) => ({ index, liquidityNet }));
  const family = v4 ? 'uniswap-v4' : 'uniswap-v3';
  const address = v4 ? `0x${id.toString(16).padStart(64, '0')}` : `v3-${id}`;
  const [token0, token1] = [t0.address, t1.address];
  const sqrtPriceX96 = getSqrtRatioAtTick(tick);
  return {
    family,
    shape: 'concentrated',
    address,
    token0,
    token1,
    fee,
    tickSpacing: spacing,
    sqrtPriceX96,
    tick,
    liquidity: active,
    ticks,
  };
}

/** Fewest pools between two tokens (BFS), Infinity when unconnected. */
export function hopDistance(pools: readonly Pool[], from: string, to: string): number {
  const dist = new Map<string, number>([[from, 0]]);
  let frontier = [from];
  while (frontier.length > 0 && !dist.has(to)) {
    const next: string[] = [];
    for (const t of frontier)
      for (const p of pools) {
        const other = p.token0 === t ? p.token1 : p.token1 === t ? p.token0 : undefined;
        if (other !== undefined && !dist.has(other)) {
          dist.set(other, dist.get(t)! + 1);
          next.push(other);
        }
      }
    frontier = next;
  }
  return dist.get(to) ?? Infinity;
}

export function generateGraph(options: GeneratorOptions = {}): BenchGraph {
  const r = rng(options.seed ?? 20_251_106);
  const tokens = makeTokens(r, options.hubs ?? 5, options.tails ?? 19);
  const hubs = tokens.filter((t) => t.hub);
  const tails = tokens.filter((t) => !t.hub);
  const home = new Map(tails.map((t) => [t.address, r() < 0.4 ? [pick(r, hubs), pick(r, hubs)] : [pick(r, hubs)]]));
  const hubPairs = hubs.flatMap((a, i) => hubs.slice(i + 1).map((b): [BenchToken, BenchToken] => [a, b]));
  const tailPairs = tails.flatMap((t) => [...new Set(home.get(t.address)!)].map((h): [BenchToken, BenchToken] => [t, h]));
  const pools: Pool[] = [];
  const v2Total = options.v2Pools ?? 150;
  const v3Total = options.v3Pools ?? 50;
  // V2: three per hub pair, then tail-hub pairs round-robin, 12 thin tail-tail pools
  const tailTail = 12;
  for (const [a, b] of hubPairs) for (let k = 0; k < 3; k++) pools.push(v2Pool(r, pools.length, a, b, logUniform(r, 2e6, 5e7)));
  for (let i = 0; pools.length < v2Total - tailTail; i++) {
    const [a, b] = tailPairs[i % tailPairs.length]!;
    pools.push(v2Pool(r, pools.length, a, b, logUniform(r, 2e4, 2e6)));
  }
  while (pools.length < v2Total) {
    const a = pick(r, tails);
    const b = pick(r, tails);
    if (a !== b) pools.push(v2Pool(r, pools.length, a, b, logUniform(r, 5e3, 1e5)));
  }
  for (let i = 0; i < v3Total; i++) {
    const [a, b] = i < hubPairs.length * 2 ? hubPairs[i % hubPairs.length]! : pick(r, tailPairs);
    pools.push(v3Pool(r, pools.length, a, b, a.hub && b.hub ? logUniform(r, 1e6, 2e7) : logUniform(r, 2e4, 1e6)));
  }
  for (let i = 0; i < (options.v4Pools ?? 30); i++) {
    const [a, b] = i < hubPairs.length ? hubPairs[i]! : pick(r, tailPairs);
    pools.push(v3Pool(r, pools.length, a, b, a.hub && b.hub ? logUniform(r, 5e5, 1e7) : logUniform(r, 2e4, 5e5), true));
  }
  return { tokens, pools, trades: makeTrades(r, tokens, pools, options.trades ?? 300) };
}

/** USD depth of a token's side over its pools (V3: the in-range virtual amount). */
function depthUsd(token: BenchToken, pools: readonly Pool[]): number {
  let usd = 0;
  for (const p of pools) {
    if (p.token0 !== token.address && p.token1 !== token.address) continue;
    const zero = p.token0 === token.address;
    const amount =
      p.shape === 'constant-product'
        ? Number(zero ? p.reserve0 : p.reserve1)
        : zero
          ? (Number(p.liquidity) * 2 ** 96) / Number(p.sqrtPriceX96)
          : (Number(p.liquidity) * Number(p.sqrtPriceX96)) / 2 ** 96;
    usd += (amount / 10 ** token.decimals) * token.usd;
  }
  return usd;
}

/** Pairs spread over 1, 2 and 3 hops; sizes log-spread from 1e-8 to 3x of the input side's depth. */
function makeTrades(r: Rand, tokens: readonly BenchToken[], pools: readonly Pool[], count: number): Trade[] {
  const byHops = new Map<number, Array<[BenchToken, BenchToken]>>();
  for (const a of tokens)
    for (const b of tokens) {
      if (a === b) continue;
      const hops = hopDistance(pools, a.address, b.address);
      if (hops <= 3) byHops.set(hops, [...(byHops.get(hops) ?? []), [a, b]]);
    }
  const classes = [...byHops.keys()].sort();
  const trades: Trade[] = [];
  for (let i = 0; i < count; i++) {
    const hops = classes[i % classes.length]!;
    const [a, b] = pick(r, byHops.get(hops)!);
    const depthFraction = 10 ** (-8 + 8.5 * ((i * 0.618_034) % 1));
    const amountIn = raw(depthUsd(a, pools) * depthFraction, a);
    trades.push({ tokenIn: a.address, tokenOut: b.address, amountIn: amountIn > 0n ? amountIn : 1n, hops, depthFraction });
  }
  return trades;
}
