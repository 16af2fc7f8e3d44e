/**
 * The order context of a cross-chain order (what GET /v2/portal answers besides the transaction):
 * amounts and their USD values, the route over both networks, the steps in words, the partner and
 * bridge fees, and rawParams (the Router order, the bridge deposit, the destination leg).
 */
import type { ExecutorCall, RouterOrder } from '@tokensvc/contracts';
import { NETWORK_INFO, ZERO_ADDRESS, type Network, toUnits, tokenKey } from '@tokensvc/domain';
import type { OrderContext } from '@tokensvc/messages';
import { tokenKind, usdValue } from '../graph/catalog';
import type { LiquidityGraphs } from '../graph/liquidity-graphs';
import { percentOfInput, routeCostPercent } from './cross-chain-amounts';
import type { Leg } from './cross-chain-leg';
import { routeTokens, stepDescriptions } from './describe-steps';
import type { Quote } from './quote-engine';
import { bufferedGas, round6 } from './slippage';

export interface ContextTerms {
  orderId: string;
  sender: string;
  /** paid on the output network: the sender, or the request's recipient */
  recipient: string;
  deadline: bigint;
  routeHash: string;
  target: string;
  value: bigint;
  gasLimit: bigint;
  order: RouterOrder;
  calls: ExecutorCall[];
  /** the bridge takes exactly the origin minimum (Across): the origin swap's surplus goes back to the sender */
  outputFixedAtDeposit: boolean;
}

/** The order's context (the spec's order context): amounts, USD values, route, steps, fee costs, rawParams. */
export function crossChainContext(leg: Leg, graphs: LiquidityGraphs, o: ContextTerms): OrderContext {
  const originGraph = graphs.get(leg.origin);
  const destinationGraph = graphs.get(leg.destination);
  const inKey = (a: string): string => tokenKey(leg.origin, a);
  const outKey = (a: string): string => tokenKey(leg.destination, a);
  const usdIn = (v: bigint): number => round6(usdValue(leg.input, v));
  const usdOut = (v: bigint): number => round6(usdValue(leg.output, v));
  const bridgedOrigin = leg.bridged.originToken.toLowerCase();
  const bridgedDestination = leg.bridged.destinationToken.toLowerCase();
  const bridgedToken = originGraph.token(bridgedOrigin);
  const bridgeFee = leg.bridgeQuote.fee;
  // What the origin swap is expected to make above the deposit: swept back to the sender when the bridge takes a fixed amount.
  const surplus = o.outputFixedAtDeposit ? leg.expectedBridged - leg.minBridged : 0n;
  const bridgeFeeUsdRaw = bridgedToken ? usdValue(bridgedToken, bridgeFee) : 0;
  const inputUsd = usdValue(leg.input, leg.amount);
  const hasPartner = leg.fee.partner !== ZERO_ADDRESS;
  const arrived = leg.bridgeQuote.outputAmount;
  const dest = leg.destinationSwap;
  const nativeSymbol = (n: Network): string => NETWORK_INFO[n].nativeSymbol;
  const units = (v: bigint, decimals: number): string => String(Number(toUnits(v, decimals).toPrecision(8)));
  const outAmount = (v: bigint): string => `${units(v, leg.output.decimals)} ${leg.output.symbol}`;
  const steps = [
    ...(leg.fee.bps > 0 ? [`The Router pays the partner ${toUnits(leg.feeAmount, leg.input.decimals)} ${leg.input.symbol}`] : []),
    ...(leg.originSwap
      ? [
          `Swap ${leg.input.symbol} for at least ${toUnits(leg.minBridged, leg.bridged.originDecimals)} ${leg.bridged.symbol} on ${leg.origin}`,
        ]
      : leg.input.address === ZERO_ADDRESS
        ? [`Wrap ${toUnits(leg.amount - leg.feeAmount, leg.input.decimals)} ${nativeSymbol(leg.origin)} into ${leg.bridged.symbol}`]
        : []),
    `Deposit the ${leg.bridged.symbol} into the ${leg.bridgeQuote.provider} bridge on ${leg.origin} (fee ${toUnits(bridgeFee, leg.bridged.originDecimals)} ${leg.bridged.symbol})`,
    ...(dest
      ? [
          `A relayer pays ${units(arrived, leg.bridged.destinationDecimals)} ${leg.bridged.symbol} on ${leg.destination} to the ${leg.bridgeQuote.provider} bridge's handler contract (about ${leg.bridgeQuote.estimatedSeconds} s), which runs the deposit's ${['basic', 'native'].includes(tokenKind(leg.output)) ? 'swap' : 'zap'} through the Router in the same transaction (the relayer's gas):`,
          ...stepDescriptions(
            dest.plan,
            (a) => destinationGraph.token(a),
            false,
            leg.output.address === ZERO_ADDRESS,
            nativeSymbol(leg.destination),
          ).map((s) => `  on ${leg.destination}: ${s}`),
          `The Router pays about ${outAmount(leg.expectedOutput)}, at least ${outAmount(leg.minOutput)}, to the recipient on ${leg.destination}; with less the whole fill reverts`,
        ]
      : leg.handlerForwards
        ? [
            `A relayer pays about ${outAmount(leg.expectedOutput)}, at least ${outAmount(leg.minOutput)}, on ${leg.destination} ` +
              `to the ${leg.bridgeQuote.provider} bridge's handler contract (about ${leg.bridgeQuote.estimatedSeconds} s), which passes all of it on ` +
              `to the recipient in the same transaction (paid directly, an externally owned account would get ${nativeSymbol(leg.destination)})`,
          ]
        : [
            `A relayer pays about ${outAmount(leg.expectedOutput)}, at least ${outAmount(leg.minOutput)}, to the recipient on ${leg.destination} ` +
              `(about ${leg.bridgeQuote.estimatedSeconds} s)`,
          ]),
    `If no relayer delivers at least ${outAmount(leg.minOutput)} by ${new Date(leg.bridgeMin.fillDeadline * 1000).toISOString()}, the deposit is refunded on ${leg.origin}`,
  ];
  const originRoute = leg.originSwap ? routeTokens(leg.originSwap.plan, leg.input.address, bridgedOrigin) : [leg.input.address];
  // Without a destination leg the bridge pays the bridged token, or the native coin for it (Across unwraps WETH to an EOA).
  const destinationRoute = dest
    ? routeTokens(dest.plan, bridgedDestination, leg.output.address)
    : bridgedDestination === leg.output.address
      ? [bridgedDestination]
      : [bridgedDestination, leg.output.address];
  const priceImpact = routeCostPercent({
    spentUsd: usdValue(leg.input, leg.amount - leg.feeAmount),
    bridgeFeeUsd: bridgeFeeUsdRaw,
    receivedUsd: usdValue(leg.output, leg.expectedOutput),
    // origin swap residuals come back to the sender (and, on a fixed-output bridge, the bridged asset above the minimum); destination ones go to the recipient with the Router's sweep
    returnedUsd: (leg.originSwap ? sweptUsd(leg.originSwap) : 0) + (surplus > 0n && bridgedToken ? usdValue(bridgedToken, surplus) : 0),
  });
  return {
    orderId: o.orderId,
    inputToken: inKey(leg.input.address),
    inputAmount: leg.amount.toString(),
    inputAmountUsd: usdIn(leg.amount),
    outputToken: outKey(leg.output.address),
    outputAmount: leg.expectedOutput.toString(),
    outputAmountUsd: usdOut(leg.expectedOutput),
    outputAmountSignedOrder: '',
    outputAmountUsdSignedOrder: 0,
    minOutputAmount: leg.minOutput.toString(),
    minOutputAmountUsd: usdOut(leg.minOutput),
    minOutputAmountSignedOrder: '',
    minOutputAmountUsdSignedOrder: 0,
    slippageTolerancePercentage: leg.slippage,
    target: o.target,
    partner: leg.fee.partner,
    sender: o.sender,
    recipient: o.recipient,
    value: o.value.toString(),
    route: [...originRoute.map(inKey), ...destinationRoute.map(outKey)],
    routeHash: o.routeHash,
    steps,
    stepsSignedOrder: [],
    isPermit: false,
    residualTokens: [
      ...new Set([...(leg.originSwap ? leg.originSwap.plan.residualTokens : []), ...(surplus > 0n ? [bridgedOrigin] : [])]),
    ].map(inKey),
    expiry: new Date(Number(o.deadline) * 1000).toISOString(),
    gasLimit: o.gasLimit.toString(),
    feeCosts: [
      ...(hasPartner
        ? [
            {
              name: 'partner fee',
              recipient: leg.fee.partner,
              token: inKey(leg.input.address),
              amount: leg.feeAmount.toString(),
              amountUsd: usdIn(leg.feeAmount),
              percentage: leg.fee.percentage,
              included: true,
            },
          ]
        : []),
      {
        name: 'bridge fee',
        token: inKey(bridgedOrigin),
        amount: bridgeFee.toString(),
        amountUsd: round6(bridgeFeeUsdRaw),
        percentage: round6(percentOfInput(bridgeFeeUsdRaw, inputUsd)),
        // taken out of what is bridged, so outputAmount is already net of it
        included: true,
      },
    ],
    feeToken: hasPartner ? inKey(leg.input.address) : undefined,
    feeAmount: hasPartner ? leg.feeAmount.toString() : undefined,
    feeAmountUsd: hasPartner ? usdIn(leg.feeAmount) : undefined,
    feeAmountSignedOrder: undefined,
    feeAmountUsdSignedOrder: undefined,
    priceImpactPercentage: priceImpact === undefined ? undefined : round6(priceImpact),
    pinnedBlocks: leg.pinned,
    rawParams: {
      function: 'executeBridge',
      order: Object.fromEntries(Object.entries(o.order).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])),
      calls: o.calls.length,
      bridge: {
        provider: leg.bridgeQuote.provider,
        fillDeadline: leg.bridgeMin.fillDeadline,
        estimatedSeconds: leg.bridgeQuote.estimatedSeconds,
        destinationChainId: leg.bridgeQuote.destinationChainId,
        bridgedToken: leg.bridged.symbol,
        depositOutputToken: outKey(bridgedDestination),
        depositOutputAmount: (dest ? arrived : leg.minOutput).toString(),
      },
      destination: leg.handlerForwards
        ? {
            network: leg.destination,
            inputToken: outKey(bridgedDestination),
            inputAmount: arrived.toString(),
            outputToken: outKey(leg.output.address),
            expectedOutput: leg.expectedOutput.toString(),
            gasPaidBy: 'relayer',
            runBy: 'bridge handler contract',
            priceImpactPercentage: 0,
          }
        : dest
          ? {
              network: leg.destination,
              inputToken: outKey(bridgedDestination),
              inputAmount: arrived.toString(),
              outputToken: outKey(leg.output.address),
              expectedOutput: leg.expectedOutput.toString(),
              gasEstimate: bufferedGas(dest.plan.gas).toString(),
              gasPaidBy: 'relayer',
              runBy: 'bridge handler contract',
              priceImpactPercentage: dest.priceImpact === undefined ? null : round6(dest.priceImpact),
            }
          : null,
    },
  };
}

/** USD value of what an origin swap sweeps back to the sender. */
function sweptUsd(q: Quote): number {
  return q.plan.steps
    .filter((s) => s.action.kind === 'sweep')
    .flatMap((s) => s.outcome.spent)
    .reduce((sum, x) => sum + usdValue(q.graph.token(x.token) ?? { priceUsd: 0, decimals: 18 }, x.amount), 0);
}
