/**
 * Seeded generated graph at a network's scale for the routing scale bench: hub tokens joined by
 * deep parallel pools (three constant-product and two concentrated per hub pair), and tail tokens
 * with one to three pools each, to random hubs (one in twenty to another tail, thin), a quarter of
 * them concentrated, until the graph holds `pools` pools. Trades are drawn per class (tail to
 * tail, hub to tail, tail to hub, hub to hub), sizes log-spread from 1e-8 to 1x the input side's
 * depth. Everything is linear in the pools (the quality bench's generator computes hop distances
 * between every pair of tokens, which is quadratic).
 */
import type { Pool } from '@tokensvc/routing';
import { type BenchToken, type Trade, logUniform, makeTokens, pick, raw, rng, v2Pool, v3Pool } from './generator';

export interface ScaleOptions {
  seed?: number;
  hubs?: number;
  pools?: number;
  trades?: number;
}

export type TradeClass = 'tail-tail' | 'hub-tail' | 'tail-hub' | 'hub-hub';

export interface ScaleTrade extends Trade {
  kind: TradeClass;
}

export interface ScaleGraph {
  tokens: BenchToken[];
  pools: Pool[];
  trades: ScaleTrade[];
}

export function generateScaleGraph(options: ScaleOptions = {}): ScaleGraph {
  const r = rng(options.seed ?? 20_261_208);
  const target = options.pools ?? 50_000;
  const hubCount = options.hubs ?? 15;
  // Two pools per tail on average: enough tokens for the target, the unused ones dropped below.
  const all = makeTokens(r, hubCount, Math.ceil(target / 1.5));
  const hubs = all.filter((t) => t.hub);
  const pools: Pool[] = [];
  const add = (a: BenchToken, b: BenchToken, usd: number, concentrated: boolean) =>
    pools.push(concentrated ? v3Pool(r, pools.length, a, b, usd) : v2Pool(r, pools.length, a, b, usd));
  for (let i = 0; i < hubs.length; i++)
    for (let j = i + 1; j < hubs.length; j++)
      for (let k = 0; k < 5; k++) add(hubs[i]!, hubs[j]!, k < 3 ? logUniform(r, 2e6, 5e7) : logUniform(r, 1e6, 2e7), k >= 3);
  const tails: BenchToken[] = [];
  for (let i = hubCount; i < all.length && pools.length < target; i++) {
    const tail = all[i]!;
    const count = Math.min(1 + Math.floor(r() * 3), target - pools.length);
    for (let k = 0; k < count; k++) {
      const other = tails.length > 0 && r() < 0.05 ? pick(r, tails) : pick(r, hubs);
      add(tail, other, other.hub ? logUniform(r, 2e4, 2e6) : logUniform(r, 5e3, 1e5), r() < 0.25);
    }
    tails.push(tail);
  }
  const tokens = [...hubs, ...tails];
  return { tokens, pools, trades: makeScaleTrades(r, hubs, tails, pools, options.trades ?? 300) };
}

/** USD depth of each token's side over its pools (V3: the in-range virtual amount), one pass. */
function depths(tokens: readonly BenchToken[], pools: readonly Pool[]): Map<string, number> {
  const byAddress = new Map(tokens.map((t) => [t.address, t]));
  const usd = new Map<string, number>();
  for (const p of pools)
    for (const [address, zero] of [
      [p.token0, true],
      [p.token1, false],
    ] as const) {
      const t = byAddress.get(address)!;
      const amount =
        p.shape === 'constant-product'
          ? Number(zero ? p.reserve0 : p.reserve1)
          : zero
            ? (Number(p.liquidity) * 2 ** 96) / Number(p.sqrtPriceX96)
            : (Number(p.liquidity) * Number(p.sqrtPriceX96)) / 2 ** 96;
      usd.set(address, (usd.get(address) ?? 0) + (amount / 10 ** t.decimals) * t.usd);
    }
  return usd;
}

const CLASSES: readonly TradeClass[] = ['tail-tail', 'hub-tail', 'tail-hub', 'hub-hub'];

function makeScaleTrades(
  r: () => number,
  hubs: readonly BenchToken[],
  tails: readonly BenchToken[],
  pools: readonly Pool[],
  count: number,
): ScaleTrade[] {
  const depth = depths([...hubs, ...tails], pools);
  const trades: ScaleTrade[] = [];
  for (let i = 0; i < count; i++) {
    const kind = CLASSES[i % CLASSES.length]!;
    const a = pick(r, kind.startsWith('hub') ? hubs : tails);
    let b = pick(r, kind.endsWith('hub') ? hubs : tails);
    while (b === a) b = pick(r, kind.endsWith('hub') ? hubs : tails);
    const depthFraction = 10 ** (-8 + 8 * ((i * 0.618_034) % 1));
    const amountIn = raw(depth.get(a.address)! * depthFraction, a);
    trades.push({
      kind,
      tokenIn: a.address,
      tokenOut: b.address,
      amountIn: amountIn > 0n ? amountIn : 1n,
      hops: kind === 'hub-hub' ? 1 : kind === 'tail-tail' ? 3 : 2,
      depthFraction,
    });
  }
  return trades;
}
