/**
 * The amount maths of a cross-chain order, pure (see cross-chain-orders.ts for the legs):
 *
 *   input --partner fee--> spend --origin swap?--> bridged --bridge fee--> arrived --destination swap?--> output
 *
 * One slippage tolerance `s` covers the whole order. The Router checks the origin leg (what
 * reaches the bridge is at least `bridged * (1 - s)`); the destination leg's Router order asks for
 * at least `output * (1 - s)` of the final token (`minOutputAmount`). On a bridge whose output is
 * fixed at deposit time (Across: the relayer pays exactly the deposit's outputAmount, whatever was
 * deposited) the deposit is exactly the origin minimum and what arrives is what the bridge makes of
 * it, so with swaps on both sides each leg gets half the tolerance (cross-chain-planner.ts). Without
 * a destination swap the minimum is what arrives; without any swap nothing can slip (slippage 0,
 * minimum = expected).
 */
import { autoSlippage, minOutput } from './slippage';

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
 * The order's minOutputAmount (final token units) on a bridge that pays all it received: with a
 * destination swap the expected output less slippage; without one, what the bridge delivers for
 * the origin minimum (`arrivedAtMinimum`).
 */
export function minFinalOutput(
  expectedOutput: bigint,
  slippagePercent: number,
  destinationSwap: boolean,
  arrivedAtMinimum: bigint,
): bigint {
  return destinationSwap ? minOutput(expectedOutput, slippagePercent) : arrivedAtMinimum;
}

/**
 * The spec's priceImpactPercentage of a cross-chain order: route cost as a percentage of what the
 * order spends net of the partner fee and the bridge's cut. `returnedUsd` is what comes back to
 * the sender (origin swap residuals), not a cost. Undefined when prices are unknown.
 */
export function routeCostPercent(o: {
  spentUsd: number;
  bridgeFeeUsd: number;
  receivedUsd: number;
  returnedUsd?: number;
}): number | undefined {
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
  return candidates.reduce((best, c) =>
    c.expectedOutput > best.expectedOutput || (c.expectedOutput === best.expectedOutput && c.swaps < best.swaps) ? c : best,
  );
}
