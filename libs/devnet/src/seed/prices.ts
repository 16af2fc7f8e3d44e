/**
 * The "true" USD price of every token at every simulated block. Arbitrage bots pull pools
 * towards it and the Aave feeds report it, which keeps prices coherent across all venues.
 * Each path is a Brownian bridge in log space that ends at the token's configured price, so the
 * devnet's current prices are the round numbers people expect (ETH ≈ 3000, BTC ≈ 60000).
 */
import type { TokenSpec } from '../config';
import { createRng } from '../math/prng';

/** Stablecoins still wobble a little, as real ones do. */
const STABLE_DAILY_VOL = 0.0008;

export class PriceBook {
  private readonly paths = new Map<string, Float64Array>();

  /**
   * @param steps number of simulated blocks; step 0 is the seeding price, step `steps` is today
   * @param stepsPerDay used to scale daily volatility to one step
   */
  constructor(
    specs: readonly TokenSpec[],
    readonly steps: number,
    stepsPerDay: number,
    seed: string,
  ) {
    for (const spec of specs) {
      // Keyed by symbol and seed only: the same token has the same history on every network.
      const rng = createRng(`${seed}/price/${spec.symbol}`);
      const vol = (spec.dailyVol > 0 ? spec.dailyVol : STABLE_DAILY_VOL) / Math.sqrt(stepsPerDay);
      const walk = new Float64Array(steps + 1);
      for (let i = 1; i <= steps; i++) walk[i] = walk[i - 1]! + vol * rng.normal();
      const end = walk[steps]!;
      const path = new Float64Array(steps + 1);
      for (let i = 0; i <= steps; i++) path[i] = spec.priceUsd * Math.exp(walk[i]! - (end * i) / steps);
      this.paths.set(spec.symbol, path);
    }
  }

  price(symbol: string, step: number): number {
    const path = this.paths.get(symbol);
    if (!path) throw new Error(`no price path for ${symbol}`);
    const value = path[Math.max(0, Math.min(this.steps, step))];
    if (value === undefined) throw new Error('unreachable');
    return value;
  }

  /** Prices at one step as a lookup function. */
  at(step: number): (symbol: string) => number {
    return (symbol) => this.price(symbol, step);
  }
}
