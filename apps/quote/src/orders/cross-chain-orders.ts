/**
 * Cross-chain orders (input and output tokens on different networks): the origin leg runs through
 * the Router's `executeBridge` (partner fee, an optional swap into the bridged asset, then a bridge
 * deposit of all of it), and the bridge provider's filler pays the recipient on the destination.
 *
 * What the deposit asks the filler to pay is fixed when the order is built: the bridge's quote for
 * the origin leg's *minimum* (after slippage), so `outputAmount` and `minOutputAmount` are both that
 * amount, and the Router reverts unless at least the matching input reaches the bridge. A bridged
 * asset needs no origin swap (exact); native input is wrapped by the Router and bridged as WETH.
 * The destination token must be what the bridge delivers (no destination swap or zap yet).
 */
import { randomUUID } from 'node:crypto';
import { type BridgeProvider, type BridgeQuote, BridgeQuoteError, type BridgeRouteToken } from '@tokensvc/bridge';
import { type ExecutorCall, type RouterOrder, depositExecutorCall, encodeExecuteBridge, routeHash } from '@tokensvc/contracts';
import { NETWORK_INFO, ZERO_ADDRESS, type Network, toUnits, tokenKey } from '@tokensvc/domain';
import type { BuildOrderRequest, EstimateReply, EstimateRequest, OrderContext, OrderReply } from '@tokensvc/messages';
import type { RouterDirectory } from '../chain/router-directory';
import { type CatalogToken, usdValue } from '../graph/catalog';
import type { LiquidityGraphs } from '../graph/liquidity-graphs';
import { orderCalls } from './order-tx';
import type { Quote, QuoteEngine } from './quote-engine';
import { badRequest, parseAddress, parseKey, parsePartnerFee, parsePositiveAmount, parseSlippage, type PartnerFee } from './request-parsing';
import { bufferedGas, minOutput, round6 } from './slippage';
import type { NetworkDeployment } from '../config/quote-config';
import type { OrderStore } from '../relay/order-store';

/**
 * Gas of the Router's bridge leg without a swap: pull, partner fee, funding the executor and the
 * deposit (which stores the whole deposit record, ~290k on its own). Measured about 390k on the
 * devnet; the static figure keeps headroom because cross-chain orders are not simulated.
 */
const DEPOSIT_GAS = 420_000;
/** Default slippage of the origin swap when none is given (cross-chain auto slippage needs no validation). */
const DEFAULT_SLIPPAGE = 0.5;
/** Any valid address: only the deposit call's target is used. */
const PLACEHOLDER = '0x0000000000000000000000000000000000000001';

export function isCrossChain(inputKey: string, outputKey: string): boolean {
  return parseKey(inputKey, 'inputToken').network !== parseKey(outputKey, 'outputToken').network;
}

interface Leg {
  origin: Network;
  destination: Network;
  input: CatalogToken;
  output: CatalogToken;
  bridged: BridgeRouteToken;
  /** the origin swap into the bridged asset, when the input is not already it */
  swap: Quote | undefined;
  amount: bigint;
  feeAmount: bigint;
  fee: PartnerFee;
  slippage: number;
  /** what reaches the bridge at least (origin units) */
  minBridged: bigint;
  bridge: BridgeQuote;
}

export class CrossChainOrders {
  constructor(
    private readonly engine: QuoteEngine,
    private readonly graphs: LiquidityGraphs,
    private readonly routers: RouterDirectory,
    private readonly deployments: ReadonlyMap<Network, NetworkDeployment>,
    private readonly bridge: BridgeProvider | undefined,
    private readonly validitySeconds: number,
    private readonly store?: OrderStore,
  ) {}

  private async leg(inputKey: string, outputKey: string, amount: bigint, fee: PartnerFee, requested: number | undefined): Promise<Leg> {
    const from = parseKey(inputKey, 'inputToken');
    const to = parseKey(outputKey, 'outputToken');
    if (!this.bridge) throw badRequest('cross-chain orders are not enabled on this deployment (no bridge provider configured)');
    const route = this.bridge.route(from.network, to.network);
    if (!route) throw badRequest(`no bridge route from ${from.network} to ${to.network}`);
    const bridged = route.tokens.find((t) => t.destinationToken.toLowerCase() === to.address);
    if (!bridged) {
      throw badRequest(`cross-chain outputToken must be one of the bridged tokens on ${to.network}: ${route.tokens.map((t) => `${t.symbol} (${tokenKey(to.network, t.destinationToken.toLowerCase())})`).join(', ')}; swaps on the destination are not supported yet`);
    }
    if (bridged.originToken === ZERO_ADDRESS) {
      const weth = route.tokens.find((t) => t.symbol === 'WETH');
      throw badRequest(`native output across networks is not supported yet${weth ? `: ask for WETH (${tokenKey(to.network, weth.destinationToken.toLowerCase())}) on ${to.network}` : ''}`);
    }
    const originGraph = this.graphs.get(from.network);
    const input = originGraph.token(from.address);
    if (!input) throw badRequest(`unknown inputToken ${inputKey}`);
    const output = this.graphs.get(to.network).token(to.address);
    if (!output) throw badRequest(`unknown outputToken ${outputKey}`);
    const bridgedOrigin = bridged.originToken.toLowerCase();
    const wrapped = this.deployment(from.network).wrappedNative;
    const direct = from.address === bridgedOrigin || (from.address === ZERO_ADDRESS && bridgedOrigin === wrapped);
    const feeAmount = (amount * BigInt(fee.bps)) / 10_000n;
    const spend = amount - feeAmount;
    const swap = direct ? undefined : await this.engine.quote({ network: from.network, input: from.address, output: bridgedOrigin }, spend);
    const slippage = direct ? 0 : (requested ?? DEFAULT_SLIPPAGE);
    const minBridged = swap ? minOutput(swap.plan.amountOut, slippage) : spend;
    let bridge: BridgeQuote;
    try {
      bridge = await this.bridge.quote({ originNetwork: from.network, destinationNetwork: to.network, inputToken: bridgedOrigin, inputAmount: minBridged, outputToken: bridged.destinationToken });
    } catch (e) {
      if (e instanceof BridgeQuoteError) throw badRequest(e.message);
      throw e;
    }
    return { origin: from.network, destination: to.network, input, output, bridged, swap, amount, feeAmount, fee, slippage, minBridged, bridge };
  }

  private deployment(network: Network): NetworkDeployment {
    const d = this.deployments.get(network);
    if (!d) throw badRequest(`network ${network} is not enabled on this service`);
    return d;
  }

  /** GET /v2/portal/estimate across networks (off-chain: the bridge pays a fixed amount). */
  async estimate(req: EstimateRequest): Promise<EstimateReply> {
    const amount = parsePositiveAmount(req.inputAmount, 'inputAmount');
    const leg = await this.leg(req.inputToken, req.outputToken, amount, parsePartnerFee(undefined, undefined), parseSlippage(req.slippageTolerancePercentage));
    const out = leg.bridge.outputAmount;
    const outputKey = tokenKey(leg.destination, leg.output.address);
    return {
      outputToken: outputKey,
      outputAmount: out.toString(),
      minOutputAmount: out.toString(),
      outputTokenDecimals: leg.output.decimals,
      context: {
        inputToken: tokenKey(leg.origin, leg.input.address),
        inputAmount: amount.toString(),
        inputAmountUsd: round6(usdValue(leg.input, amount)),
        outputToken: outputKey,
        outputAmount: out.toString(),
        outputAmountUsd: round6(usdValue(leg.output, out)),
        minOutputAmountUsd: round6(usdValue(leg.output, out)),
        slippageTolerancePercentage: leg.slippage,
        simulated: false,
        gasLimit: this.gasLimit(leg).toString(),
      },
    };
  }

  private gasLimit(leg: Leg): bigint {
    return bufferedGas(BigInt((leg.swap?.plan.gas ?? 0) + DEPOSIT_GAS));
  }

  /** GET /v2/portal across networks: the Router transaction of the origin leg, stored like every order. */
  async build(req: BuildOrderRequest): Promise<OrderReply> {
    if (req.permitSignature !== undefined) throw badRequest('permitSignature is not accepted on cross-chain orders: approve the Router (GET /v2/approval with outputToken) instead');
    const sender = parseAddress(req.sender, 'sender', { allowZero: false });
    const amount = parsePositiveAmount(req.inputAmount, 'inputAmount');
    const fee = parsePartnerFee(req.partner, req.feePercentage);
    const leg = await this.leg(req.inputToken, req.outputToken, amount, fee, parseSlippage(req.slippageTolerancePercentage));
    const origin = this.deployment(leg.origin);
    const executor = await this.routers.executor(leg.origin, origin.router);
    const routerDeadline = BigInt(Math.floor(Date.now() / 1000) + this.validitySeconds);
    const deadline = routerDeadline < BigInt(leg.bridge.fillDeadline) ? routerDeadline : BigInt(leg.bridge.fillDeadline);
    const escrow = await this.escrow(leg);
    // Residuals of the origin swap (if any) go back to the sender; the bridged asset stays for the deposit.
    const swapCalls: ExecutorCall[] = leg.swap ? orderCalls(leg.swap, { executor, recipient: sender, deadline }) : [];
    const calls = [
      ...swapCalls,
      depositExecutorCall(escrow, {
        inputToken: leg.bridged.originToken,
        inputAmount: 0n,
        destinationChainId: BigInt(NETWORK_INFO[leg.destination].chainId),
        outputToken: leg.bridged.destinationToken,
        outputAmount: leg.bridge.outputAmount,
        recipient: sender,
        fillDeadline: BigInt(leg.bridge.fillDeadline),
        refundTo: sender,
      }),
    ];
    const order: RouterOrder = {
      inputToken: leg.input.address,
      inputAmount: amount,
      outputToken: leg.bridged.originToken.toLowerCase(),
      minOutputAmount: leg.minBridged,
      recipient: escrow,
      partner: fee.partner,
      feeBps: fee.bps,
      deadline,
    };
    const value = leg.input.address === ZERO_ADDRESS ? amount : 0n;
    const data = encodeExecuteBridge(order, calls);
    const gasLimit = this.gasLimit(leg);
    const orderId = randomUUID();
    const reply: OrderReply = {
      context: this.context(leg, { orderId, sender, deadline, routeHash: routeHash(calls), target: origin.router, value, gasLimit, order, calls }),
      tx: { to: origin.router, from: sender, data, value: value.toString(), gasLimit: gasLimit.toString() },
      signedOrder: undefined,
    };
    await this.store?.save({ orderId, network: leg.origin, chainId: origin.chainId, sender, expiresAt: new Date(Number(deadline) * 1000), reply, calls });
    return reply;
  }

  /** The escrow the provider deposits into on the origin (from its deposit call). */
  private async escrow(leg: Leg): Promise<string> {
    const call = this.bridge!.depositCall({ quote: leg.bridge, depositor: PLACEHOLDER, recipient: PLACEHOLDER, refundTo: PLACEHOLDER });
    return call.to.toLowerCase();
  }

  private context(leg: Leg, o: { orderId: string; sender: string; deadline: bigint; routeHash: string; target: string; value: bigint; gasLimit: bigint; order: RouterOrder; calls: ExecutorCall[] }): OrderContext {
    const inKey = (a: string): string => tokenKey(leg.origin, a);
    const out = leg.bridge.outputAmount;
    const usdIn = (v: bigint): number => round6(usdValue(leg.input, v));
    const usdOut = (v: bigint): number => round6(usdValue(leg.output, v));
    const bridgedToken = this.graphs.get(leg.origin).token(leg.bridged.originToken.toLowerCase());
    const bridgeFeeUsd = bridgedToken ? round6(usdValue(bridgedToken, leg.bridge.fee)) : 0;
    const spentUsd = usdValue(leg.input, leg.amount - leg.feeAmount) - (bridgedToken ? usdValue(bridgedToken, leg.bridge.fee) : 0);
    const receivedUsd = usdValue(leg.output, out);
    const hasPartner = leg.fee.partner !== ZERO_ADDRESS;
    const steps = [
      ...(leg.fee.bps > 0 ? [`The Router pays the partner ${toUnits(leg.feeAmount, leg.input.decimals)} ${leg.input.symbol}`] : []),
      ...(leg.swap ? [`Swap ${leg.input.symbol} for at least ${toUnits(leg.minBridged, leg.bridged.originDecimals)} ${leg.bridged.symbol} on ${leg.origin}`] : []),
      `Deposit the ${leg.bridged.symbol} into the ${leg.bridge.provider} bridge on ${leg.origin} (fee ${toUnits(leg.bridge.fee, leg.bridged.originDecimals)} ${leg.bridged.symbol})`,
      `A filler pays ${toUnits(out, leg.output.decimals)} ${leg.output.symbol} to the recipient on ${leg.destination} (about ${leg.bridge.estimatedSeconds} s); unfilled deposits are refunded on ${leg.origin} after ${new Date(leg.bridge.fillDeadline * 1000).toISOString()}`,
    ];
    return {
      orderId: o.orderId,
      inputToken: inKey(leg.input.address),
      inputAmount: leg.amount.toString(),
      inputAmountUsd: usdIn(leg.amount),
      outputToken: tokenKey(leg.destination, leg.output.address),
      outputAmount: out.toString(),
      outputAmountUsd: usdOut(out),
      outputAmountSignedOrder: '',
      outputAmountUsdSignedOrder: 0,
      minOutputAmount: out.toString(),
      minOutputAmountUsd: usdOut(out),
      minOutputAmountSignedOrder: '',
      minOutputAmountUsdSignedOrder: 0,
      slippageTolerancePercentage: leg.slippage,
      target: o.target,
      partner: leg.fee.partner,
      sender: o.sender,
      recipient: o.sender,
      value: o.value.toString(),
      route: [inKey(leg.input.address), ...(leg.swap ? [inKey(leg.bridged.originToken.toLowerCase())] : []), tokenKey(leg.destination, leg.output.address)],
      routeHash: o.routeHash,
      steps,
      stepsSignedOrder: [],
      isPermit: false,
      residualTokens: leg.swap ? leg.swap.plan.residualTokens.map(inKey) : [],
      expiry: new Date(Number(o.deadline) * 1000).toISOString(),
      gasLimit: o.gasLimit.toString(),
      feeCosts: [
        ...(hasPartner ? [{ name: 'partner fee', recipient: leg.fee.partner, token: inKey(leg.input.address), amount: leg.feeAmount.toString(), amountUsd: usdIn(leg.feeAmount), percentage: leg.fee.percentage, included: true }] : []),
        {
          name: 'bridge fee',
          token: inKey(leg.bridged.originToken.toLowerCase()),
          amount: leg.bridge.fee.toString(),
          amountUsd: bridgeFeeUsd,
          percentage: round6(leg.amount > 0n ? (usdValue(leg.input, leg.amount) > 0 ? (bridgeFeeUsd / usdValue(leg.input, leg.amount)) * 100 : 0) : 0),
          included: true,
        },
      ],
      feeToken: hasPartner ? inKey(leg.input.address) : undefined,
      feeAmount: hasPartner ? leg.feeAmount.toString() : undefined,
      feeAmountUsd: hasPartner ? usdIn(leg.feeAmount) : undefined,
      feeAmountSignedOrder: undefined,
      feeAmountUsdSignedOrder: undefined,
      priceImpactPercentage: spentUsd > 0 ? round6(Math.max(0, ((spentUsd - receivedUsd) / spentUsd) * 100)) : undefined,
      rawParams: {
        function: 'executeBridge',
        order: Object.fromEntries(Object.entries(o.order).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])),
        calls: o.calls.length,
        bridge: { provider: leg.bridge.provider, fillDeadline: leg.bridge.fillDeadline, estimatedSeconds: leg.bridge.estimatedSeconds, destinationChainId: leg.bridge.destinationChainId },
      },
    };
  }
}
