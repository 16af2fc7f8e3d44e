/**
 * The amount maths of a cross-chain order, pure (see cross-chain-orders.ts for the legs):
 *
 *   input --partner fee--> spend --origin swap?--> bridged --bridge fee--> arrived --destination swap?--> output
 *
 * One slippage tolerance `s` covers the whole order. The Router checks the origin leg (what
 * reaches the bridge is at least `bridged * (1 - s)`), and the deposit asks the filler for at least
 * `output * (1 - s)` of the final token (`minOutputAmount`): the two legs share the tolerance, so an
 * origin leg that used all of it leaves the destination leg none. Without a destination swap the
 * filler pays everything that arrived, so the minimum is exactly what the bridge makes of the
 * origin minimum; without any swap nothing can slip (slippage 0, minimum = expected).
 */
import type { BridgeRouteToken } from '@tokensvc/bridge';
import { autoSlippage, minOutput } from './slippage';

const NATIVE = '0x0000000000000000000000000000000000000000';

export interface LegSwaps {
  origin: boolean;
  destination: boolean;
}

/** The tolerance applied, in percent: 0 when nothing is swapped, else the requested one or auto slippage over the order's price impact. */
export function crossChainSlippage(requested: number | undefined, swaps: LegSwaps, priceImpactPercent: number | undefined): number {
  if (!swaps.origin && !swaps.destination) return 0;
  return requested ?? autoSlippage(priceImpactPercent);
}

/** Price impact of two legs in a row (percent): what is left after both, compounded. */
export function combinedImpact(origin: number | undefined, destination: number | undefined): number | undefined {
  if (origin === undefined && destination === undefined) return undefined;
  const kept = (1 - (origin ?? 0) / 100) * (1 - (destination ?? 0) / 100);
  return Math.max(0, (1 - kept) * 100);
}

/** What the Router must see reach the bridge (origin units): the swap's expected output less slippage, or all of it without a swap. */
export function minBridgedAmount(expectedBridged: bigint, slippagePercent: number, originSwap: boolean): bigint {
  return originSwap ? minOutput(expectedBridged, slippagePercent) : expectedBridged;
}

/**
 * The order's minOutputAmount (final token units), which is also the deposit's outputAmount:
 * with a destination swap the expected output less slippage; without one, what the bridge
 * delivers for the origin minimum (`arrivedAtMinimum`), which the filler pays in full.
 */
export function minFinalOutput(expectedOutput: bigint, slippagePercent: number, destinationSwap: boolean, arrivedAtMinimum: bigint): bigint {
  return destinationSwap ? minOutput(expectedOutput, slippagePercent) : arrivedAtMinimum;
}

/**
 * The spec's priceImpactPercentage of a cross-chain order: route cost as a percentage of what the
 * order spends net of the partner fee and the bridge's cut. `returnedUsd` is what comes back to
 * the sender (origin swap residuals), not a cost. Undefined when prices are unknown.
 */
export function routeCostPercent(o: { spentUsd: number; bridgeFeeUsd: number; receivedUsd: number; returnedUsd?: number }): number | undefined {
  const spent = o.spentUsd - o.bridgeFeeUsd;
  if (!(spent > 0) || !(o.receivedUsd > 0)) return undefined;
  return Math.max(0, ((spent - o.receivedUsd - (o.returnedUsd ?? 0)) / spent) * 100);
}

/** A fee as a percentage of the input offered (0 when the input's value is unknown). */
export function percentOfInput(feeUsd: number, inputUsd: number): number {
  return inputUsd > 0 ? (feeUsd / inputUsd) * 100 : 0;
}

/** The best of several ways through the bridge: most output, then fewest swaps, then the first listed. */
export function pickRoute<T extends { expectedOutput: bigint; swaps: number }>(candidates: readonly T[]): T {
  if (candidates.length === 0) throw new Error('pickRoute needs at least one candidate');
  return candidates.reduce((best, c) => (c.expectedOutput > best.expectedOutput || (c.expectedOutput === best.expectedOutput && c.swaps < best.swaps) ? c : best));
}

/**
 * The bridged assets worth trying, in the order of predictability: the output itself when the
 * bridge carries it (no destination swap), else the input when the bridge carries it (native
 * input as the wrapped coin: no origin swap), else every carried asset (the best is kept).
 */
export function bridgedAssets(carried: readonly BridgeRouteToken[], input: string, output: string, wrappedNative: string): BridgeRouteToken[] {
  const byOutput = carried.find((t) => t.destinationToken.toLowerCase() === output);
  if (byOutput) return [byOutput];
  const asInput = input === NATIVE ? wrappedNative : input;
  const byInput = carried.find((t) => t.originToken.toLowerCase() === asInput);
  if (byInput) return [byInput];
  return [...carried];
}
