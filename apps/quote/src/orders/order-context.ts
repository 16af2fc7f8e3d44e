/** context of the Order response: amounts, USD values, fees, route and the decoded parameters. */
import { NETWORK_INFO, ZERO_ADDRESS, toUnits, tokenKey } from '@tokensvc/domain';
import type { OrderContext } from '@tokensvc/messages';
import { usdValue } from '../graph/catalog';
import { routeTokens, stepDescriptions } from './describe-steps';
import type { OrderTx } from './order-tx';
import type { Quote } from './quote-engine';
import type { PartnerFee } from './request-parsing';
import type { SignedVariant } from './signed-order-variant';
import { round6 } from './slippage';

export interface ContextInputs {
  orderId: string;
  sender: string;
  fee: PartnerFee;
  feeAmount: bigint;
  amount: bigint;
  slippage: number;
  deadline: bigint;
  tx: OrderTx;
  outputAmount: bigint;
  gasLimit: bigint;
  isPermit: boolean;
  signed: SignedVariant | undefined;
}

export function orderContext(quote: Quote, o: ContextInputs): OrderContext {
  const key = (address: string): string => tokenKey(quote.network, address);
  const lookup = (a: string) => quote.graph.token(a);
  const usdIn = (v: bigint): number => round6(usdValue(quote.input, v));
  const usdOut = (v: bigint): number => round6(usdValue(quote.output, v));
  const minOut = o.tx.order.minOutputAmount;
  const nativeSymbol = NETWORK_INFO[quote.network].nativeSymbol;
  const steps = stepDescriptions(
    quote.plan,
    lookup,
    quote.input.address === ZERO_ADDRESS,
    quote.output.address === ZERO_ADDRESS,
    nativeSymbol,
  );
  const signed = o.signed;
  const hasPartner = o.fee.partner !== ZERO_ADDRESS;
  return {
    orderId: o.orderId,
    inputToken: key(quote.input.address),
    inputAmount: o.amount.toString(),
    inputAmountUsd: usdIn(o.amount),
    outputToken: key(quote.output.address),
    outputAmount: o.outputAmount.toString(),
    outputAmountUsd: usdOut(o.outputAmount),
    outputAmountSignedOrder: signed?.outputAmount.toString() ?? '',
    outputAmountUsdSignedOrder: signed ? usdOut(signed.outputAmount) : 0,
    minOutputAmount: minOut.toString(),
    minOutputAmountUsd: usdOut(minOut),
    minOutputAmountSignedOrder: signed?.minOutputAmount.toString() ?? '',
    minOutputAmountUsdSignedOrder: signed ? usdOut(signed.minOutputAmount) : 0,
    slippageTolerancePercentage: o.slippage,
    target: o.tx.to,
    partner: o.fee.partner,
    sender: o.sender,
    recipient: o.sender,
    value: o.tx.value.toString(),
    route: routeTokens(quote.plan, quote.input.address, quote.output.address).map(key),
    routeHash: o.tx.routeHash,
    steps,
    stepsSignedOrder: signed
      ? [
          `A relayer submits the signed order and keeps ${toUnits(signed.relayerFee, quote.input.decimals)} ${quote.input.symbol} for its gas`,
          ...steps,
        ]
      : [],
    isPermit: o.isPermit,
    residualTokens: quote.plan.residualTokens.map(key),
    expiry: new Date(Number(o.deadline) * 1000).toISOString(),
    gasLimit: o.gasLimit.toString(),
    feeCosts: hasPartner
      ? [
          {
            name: 'partner fee',
            recipient: o.fee.partner,
            token: key(quote.input.address),
            amount: o.feeAmount.toString(),
            amountUsd: usdIn(o.feeAmount),
            percentage: o.fee.percentage,
            included: true,
          },
        ]
      : [],
    feeToken: key(quote.input.address),
    feeAmount: o.feeAmount.toString(),
    feeAmountUsd: usdIn(o.feeAmount),
    feeAmountSignedOrder: signed ? (o.feeAmount + signed.relayerFee).toString() : undefined,
    feeAmountUsdSignedOrder: signed ? usdIn(o.feeAmount + signed.relayerFee) : undefined,
    priceImpactPercentage: quote.priceImpact === undefined ? undefined : round6(quote.priceImpact),
    pinnedBlocks: [quote.pinned],
    rawParams: {
      function: o.isPermit ? 'executeWithPermit' : 'execute',
      order: Object.fromEntries(Object.entries(o.tx.order).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])),
      calls: o.tx.calls.length,
      executorCalls: o.tx.calls.map((c) => ({ target: c.target, inputs: c.inputs.length })),
    },
  };
}
