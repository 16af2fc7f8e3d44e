/**
 * The plan of a cross-chain order (cross-chain-orders.ts): which bridged asset, the swaps around
 * it, and the minimums of each leg.
 *
 * The bridged asset is the one the bridge pays as the output itself when there is one (no
 * destination leg), else every bridged asset is tried and the one that delivers most is kept. A
 * bridge whose output is fixed at deposit time (Across) gets exactly the origin minimum; the rest
 * of the origin swap's output goes back to the sender. Amount maths and the one slippage tolerance over
 * both legs: ./cross-chain-amounts.ts.
 */
import { type BridgeProvider, type BridgeQuote, BridgeQuoteError, type BridgeRouteToken } from '@tokensvc/bridge';
import { ZERO_ADDRESS, type Network, tokenKey } from '@tokensvc/domain';
import { ErrorCode } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import type { CatalogToken } from '../graph/catalog';
import type { LiquidityGraphs } from '../graph/liquidity-graphs';
import { combinedImpact, crossChainSlippage, minBridgedAmount, minFinalOutput, pickRoute } from './cross-chain-amounts';
import type { Candidate, Leg } from './cross-chain-leg';
import { type QuoteEngine, pinnedBlock, routedDeployment } from './quote-engine';
import { AUTO_SLIPPAGE_CAP, badRequest, parseKey, type PartnerFee } from './request-parsing';
import { autoSlippageExceeded, minOutput } from './slippage';
import type { NetworkDeployment } from '../config/quote-config';

export class CrossChainPlanner {
  constructor(
    private readonly engine: QuoteEngine,
    private readonly graphs: LiquidityGraphs,
    private readonly deployments: ReadonlyMap<Network, NetworkDeployment>,
    private readonly bridge: BridgeProvider | undefined,
  ) {}

  /** The order from `inputKey` to `outputKey` through the bridge, with its minimums at the (requested or automatic) slippage. */
  async plan(inputKey: string, outputKey: string, amount: bigint, fee: PartnerFee, requested: number | undefined): Promise<Leg> {
    const from = parseKey(inputKey, 'inputToken');
    const to = parseKey(outputKey, 'outputToken');
    if (!this.bridge) throw badRequest('cross-chain orders are not enabled on this deployment (no bridge provider configured)');
    const route = this.bridge.route(from.network, to.network);
    if (!route) throw badRequest(`no bridge route from ${from.network} to ${to.network}`);
    for (const n of [from.network, to.network]) {
      if (!this.deployments.has(n))
        throw badRequest(`cross-chain order from ${from.network} to ${to.network}: network ${n} is not enabled on this service`);
    }
    const input = this.graphs.get(from.network).token(from.address);
    if (!input) throw badRequest(`unknown inputToken ${inputKey}: not a supported token on ${from.network}`);
    const output = this.graphs.get(to.network).token(to.address);
    if (!output) throw badRequest(`unknown outputToken ${outputKey}: not a supported token on ${to.network}`);
    const feeAmount = (amount * BigInt(fee.bps)) / 10_000n;
    const spend = amount - feeAmount;

    // The Router deposits ERC-20s (native input travels as WETH); a destination leg turns them into anything.
    const carried = route.tokens.filter((t) => t.originToken !== ZERO_ADDRESS && t.destinationToken !== ZERO_ADDRESS);
    const mode = this.destinationMode(to.network);
    const direct = carried.filter((t) => this.delivers(route.tokens, t, output.address, to.network));
    const tried = direct.length > 0 || mode === 'none' ? direct : carried;
    if (tried.length === 0 && carried.length > 0 && mode === 'none')
      throw badRequest(needsDestinationLeg(this.bridge.name, outputKey, to.network, route.tokens));
    if (tried.length === 0) throw badRequest(`the ${this.bridge.name} bridge carries no ERC-20 from ${from.network} to ${to.network}`);
    const outcomes = await Promise.allSettled(
      tried.map((t) => this.candidate(from.network, to.network, input, output, t, spend, !direct.includes(t))),
    );
    const found: Candidate[] = [];
    const refusals: string[] = [];
    outcomes.forEach((o, i) => {
      if (o.status === 'fulfilled') found.push(o.value);
      else if (isBadRequest(o.reason))
        refusals.push(tried.length === 1 ? o.reason.message : `via ${tried[i]!.symbol}: ${o.reason.message}`);
      else throw o.reason;
    });
    if (found.length === 0)
      throw badRequest(
        tried.length === 1 ? refusals[0]! : `no way to ${outputKey} through the ${this.bridge.name} bridge: ${refusals.join('; ')}`,
      );
    const best = pickRoute(found);

    const swaps = { origin: best.originSwap !== undefined, destination: best.destinationSwap !== undefined };
    const slippage = crossChainSlippage(requested, swaps, combinedImpact(best.originSwap?.priceImpact, best.destinationSwap?.priceImpact));
    if (requested === undefined && slippage > AUTO_SLIPPAGE_CAP) throw badRequest(autoSlippageExceeded(slippage));
    const fixed = this.bridge.outputFixedAtDeposit;
    // A fixed-output bridge delivers what the origin minimum buys, so with two swaps each leg gets half the tolerance.
    const originTolerance = fixed && swaps.origin && swaps.destination ? slippage / 2 : slippage;
    const minBridged = minBridgedAmount(best.expectedBridged, originTolerance, swaps.origin);
    const bridgeMin =
      minBridged === best.expectedBridged ? best.bridgeQuote : await this.bridgeQuote(from.network, to.network, best.bridged, minBridged);
    const settled = fixed
      ? await this.atMinimum(best, to.network, output, bridgeMin, slippage - (swaps.origin ? originTolerance : 0))
      : { ...best, minOutput: minFinalOutput(best.expectedOutput, slippage, swaps.destination, bridgeMin.outputAmount) };
    if (settled.minOutput <= 0n)
      throw badRequest(`amount too small: inputAmount ${amount} would deliver nothing of ${outputKey} at ${slippage}% slippage`);
    // Asked for the wrapped native token itself: paid through the handler, or an externally owned account would get the native coin.
    const handlerForwards =
      mode === 'message' &&
      !settled.destinationSwap &&
      output.address !== ZERO_ADDRESS &&
      this.unwrapsForAccounts(route.tokens, best.bridged, to.network);
    return {
      ...settled,
      origin: from.network,
      destination: to.network,
      input,
      output,
      amount,
      feeAmount,
      fee,
      slippage,
      minBridged,
      bridgeMin,
      mode,
      handlerForwards,
    };
  }

  /**
   * A fixed-output bridge pays exactly what `bridgeMin` (the origin minimum) makes: the destination
   * leg, if any, runs on that amount and keeps `destinationTolerance` of slippage; without one the
   * minimum is what arrives.
   */
  private async atMinimum(
    best: Candidate,
    destination: Network,
    output: CatalogToken,
    bridgeMin: BridgeQuote,
    destinationTolerance: number,
  ): Promise<Candidate & { minOutput: bigint }> {
    const arrived = bridgeMin.outputAmount;
    if (!best.destinationSwap) return { ...best, bridgeQuote: bridgeMin, expectedOutput: arrived, minOutput: arrived };
    const destinationSwap =
      arrived === best.bridgeQuote.outputAmount
        ? best.destinationSwap
        : await leg(`destination leg on ${destination} (${best.bridged.symbol} -> ${output.symbol})`, () =>
            this.engine.quote(
              { network: destination, input: best.bridged.destinationToken.toLowerCase(), output: output.address },
              arrived,
            ),
          );
    const expectedOutput = destinationSwap.plan.amountOut;
    const pinned = [best.pinned[0]!, destinationSwap.pinned];
    return {
      ...best,
      bridgeQuote: bridgeMin,
      destinationSwap,
      expectedOutput,
      pinned,
      minOutput: minOutput(expectedOutput, destinationTolerance),
    };
  }

  /** How a destination leg runs on `destination`: the bridge's way, or none for a message bridge without a handler there. */
  private destinationMode(destination: Network): 'message' | 'none' {
    return this.bridge!.destinationLeg === 'message' && this.bridge!.destinationHandler(destination) ? 'message' : 'none';
  }

  /** The order through one bridged asset: origin swap (if needed), bridge, destination swap (if needed). */
  private async candidate(
    origin: Network,
    destination: Network,
    input: CatalogToken,
    output: CatalogToken,
    bridged: BridgeRouteToken,
    spend: bigint,
    needsLeg: boolean,
  ): Promise<Candidate> {
    const bridgedOrigin = bridged.originToken.toLowerCase();
    const bridgedDestination = bridged.destinationToken.toLowerCase();
    const wrapped = routedDeployment(this.deployments, origin).wrappedNative;
    const direct = input.address === bridgedOrigin || (input.address === ZERO_ADDRESS && bridgedOrigin === wrapped);
    const originSwap = direct
      ? undefined
      : await leg(`origin leg on ${origin} (${input.symbol} -> ${bridged.symbol})`, () =>
          this.engine.quote({ network: origin, input: input.address, output: bridgedOrigin }, spend),
        );
    const expectedBridged = originSwap ? originSwap.plan.amountOut : spend;
    const bridgeQuote = await this.bridgeQuote(origin, destination, bridged, expectedBridged);
    const destinationSwap = !needsLeg
      ? undefined
      : await leg(`destination leg on ${destination} (${bridged.symbol} -> ${output.symbol})`, () =>
          this.engine.quote({ network: destination, input: bridgedDestination, output: output.address }, bridgeQuote.outputAmount),
        );
    const expectedOutput = destinationSwap ? destinationSwap.plan.amountOut : bridgeQuote.outputAmount;
    const pinned = [
      originSwap?.pinned ?? pinnedBlock(origin, this.graphs.get(origin).head),
      destinationSwap?.pinned ?? pinnedBlock(destination, this.graphs.get(destination).head),
    ];
    return {
      bridged,
      originSwap,
      expectedBridged,
      bridgeQuote,
      destinationSwap,
      expectedOutput,
      swaps: (originSwap ? 1 : 0) + (destinationSwap ? 1 : 0),
      pinned,
    };
  }

  /** The bridge's quote for `amount` of `bridged`; a quote the bridge refuses is a 400. */
  private async bridgeQuote(origin: Network, destination: Network, bridged: BridgeRouteToken, amount: bigint): Promise<BridgeQuote> {
    try {
      return await this.bridge!.quote({
        originNetwork: origin,
        destinationNetwork: destination,
        inputToken: bridged.originToken,
        inputAmount: amount,
        outputToken: bridged.destinationToken,
      });
    } catch (e) {
      if (e instanceof BridgeQuoteError) throw badRequest(e.message);
      throw e;
    }
  }

  /**
   * Whether the bridge pays `output` itself for the carried token `t` (no destination leg): its own
   * counterpart, or the native coin for the wrapped native token when the route carries the native
   * coin too (Across pays a WETH fill to an EOA recipient as ETH).
   */
  private delivers(routeTokens: readonly BridgeRouteToken[], t: BridgeRouteToken, output: string, destination: Network): boolean {
    if (t.destinationToken.toLowerCase() === output) return true;
    return output === ZERO_ADDRESS && this.unwrapsForAccounts(routeTokens, t, destination);
  }

  /**
   * Whether the bridge pays a fill of `t` to an externally owned account as the native coin: `t`
   * is the wrapped native token and the route carries the native coin too (Across's SpokePool
   * unwraps for a recipient without code, or with EIP-7702 delegation code only).
   */
  private unwrapsForAccounts(routeTokens: readonly BridgeRouteToken[], t: BridgeRouteToken, destination: Network): boolean {
    const wrapped = this.deployments.get(destination)?.wrappedNative;
    return t.destinationToken.toLowerCase() === wrapped && routeTokens.some((r) => r.destinationToken === ZERO_ADDRESS);
  }
}

/** The refusal of an order whose output the bridge does not deliver itself: what to ask for instead. */
function needsDestinationLeg(bridge: string, outputKey: string, destination: Network, routeTokens: readonly BridgeRouteToken[]): string {
  const options = routeTokens.map((t) => `${t.symbol} (${tokenKey(destination, t.destinationToken)})`).join(', ');
  return (
    `${outputKey} would need a destination swap or zap on ${destination}, which cross-chain orders through the ${bridge} bridge do not support yet (no destination leg): ` +
    `ask for a token the bridge delivers there as outputToken, one of ${options}, and swap on ${destination} with a same-chain order afterwards`
  );
}

/** Runs one leg's quote, prefixing a 400 with which leg it is. */
async function leg<T>(name: string, quote: () => Promise<T>): Promise<T> {
  try {
    return await quote();
  } catch (e) {
    if (isBadRequest(e)) throw badRequest(`${name}: ${e.message}`);
    throw e;
  }
}

function isBadRequest(e: unknown): e is ServiceError {
  return e instanceof ServiceError && e.code === ErrorCode.ERROR_CODE_BAD_REQUEST;
}
