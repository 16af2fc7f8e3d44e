/**
 * GET /v2/portal: a ready-to-sign Router transaction for a same-chain swap or zap (cross-chain
 * orders are CrossChainOrders', chosen by the controller), validated by
 * simulation unless validate=false, with every context field of the spec. Every order is stored
 * (OrderStore) under `orderId`, a fresh UUID that also seeds the signed order's nonce, so POST
 * /v2/portal can relay it and GET /v2/portal/status return it. The signed order names the relayer
 * (`relayers`, lowercase address per network) as its only submitter.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { type Network, SAME_CHAIN_RECIPIENT_MESSAGE, ZERO_ADDRESS } from '@tokensvc/domain';
import type { BuildOrderRequest, OrderReply } from '@tokensvc/messages';
import type { ChainClock } from '../chain/chain-clients';
import { tokenKind } from '../graph/catalog';
import { type QuoteKind, timedBuild } from '../metrics';
import type { RouterDirectory } from '../chain/router-directory';
import type { OrderStore } from '../relay/order-store';
import { explainQuote } from './explain-quote';
import { orderContext } from './order-context';
import { type OrderTx, buildOrderTx, permitParams } from './order-tx';
import type { OrderValidator } from './order-validation';
import type { Quote, QuoteEngine } from './quote-engine';
import {
  AUTO_SLIPPAGE_CAP,
  badRequest,
  parseAddress,
  parsePair,
  parsePartnerFee,
  parsePermitDeadline,
  parsePositiveAmount,
  parseSlippage,
} from './request-parsing';
import { signedVariant } from './signed-order-variant';
import { autoSlippage, autoSlippageExceeded, bufferedGas, driftPercent, minOutput } from './slippage';

export class BuildOrderUseCase {
  private readonly logger = new Logger('BuildOrderUseCase');

  constructor(
    private readonly engine: QuoteEngine,
    private readonly routers: RouterDirectory,
    private readonly validator: OrderValidator,
    private readonly validitySeconds: number,
    private readonly clock: ChainClock,
    private readonly store?: OrderStore,
    private readonly relayers: ReadonlyMap<Network, string> = new Map(),
  ) {}

  async execute(req: BuildOrderRequest): Promise<OrderReply> {
    // swap or zap once the tokens are resolved (quote_build_duration_seconds)
    const kind: { now: QuoteKind } = { now: 'unknown' };
    return timedBuild(
      () => kind.now,
      () => this.sameChain(req, kind),
    );
  }

  private async sameChain(req: BuildOrderRequest, kind: { now: QuoteKind }): Promise<OrderReply> {
    const sender = parseAddress(req.sender, 'sender', { allowZero: false });
    const pair = parsePair(req.inputToken, req.outputToken);
    const amount = parsePositiveAmount(req.inputAmount, 'inputAmount');
    const requested = parseSlippage(req.slippageTolerancePercentage);
    const fee = parsePartnerFee(req.partner, req.feePercentage);
    const validate = req.validate ?? true;
    const explain = req.explain === true;
    if (req.recipient !== undefined) throw badRequest(SAME_CHAIN_RECIPIENT_MESSAGE);
    if (req.permitSignature !== undefined && pair.input === ZERO_ADDRESS)
      throw badRequest('permitSignature does not apply to native input (it needs no approval)');
    const permitDeadline = await parsePermitDeadline(req.permitDeadline, () => this.clock.now(pair.network));
    if (requested === undefined && !validate)
      throw badRequest('auto slippage needs validate=true on same-chain orders: set slippageTolerancePercentage, or keep validate=true');

    const feeAmount = (amount * BigInt(fee.bps)) / 10_000n;
    const quote = await this.engine.quote(pair, amount - feeAmount);
    kind.now = [quote.input, quote.output].every((t) => ['basic', 'native'].includes(tokenKind(t))) ? 'swap' : 'zap';
    const executor = await this.routers.executor(pair.network, quote.deployment.router);
    const deadline = BigInt((await this.clock.now(pair.network)) + this.validitySeconds);
    const permit = req.permitSignature === undefined ? undefined : permitParams(req.permitSignature, amount, permitDeadline);
    const build = (slippage: number): OrderTx =>
      buildOrderTx(
        quote,
        {
          sender,
          recipient: sender,
          partner: fee.partner,
          feeBps: fee.bps,
          inputAmount: amount,
          minOutputAmount: minOutput(quote.plan.amountOut, slippage),
          deadline,
          executor,
        },
        permit,
      );

    let slippage = requested ?? autoSlippage(quote.priceImpact);
    if (requested === undefined && slippage > AUTO_SLIPPAGE_CAP) throw badRequest(autoSlippageExceeded(slippage));
    let tx = build(slippage);
    let outputAmount = quote.plan.amountOut;
    let gasLimit = bufferedGas(quote.plan.gas);
    let gasShortfall: string | undefined;
    if (validate) {
      let result = await this.validator.validate(quote, tx, sender, permit !== undefined);
      if (!result.ok && requested === undefined) {
        // The chain pays less than the graph predicted: auto slippage absorbs the drift, up to its cap.
        slippage = autoSlippage(quote.priceImpact, driftPercent(quote.plan.amountOut, result.received));
        if (slippage > AUTO_SLIPPAGE_CAP) throw badRequest(autoSlippageExceeded(slippage));
        tx = build(slippage);
        result = await this.validator.validate(quote, tx, sender, permit !== undefined);
      }
      if (!result.ok) {
        throw badRequest(
          `execution reverted: slippage exceeded: executing now would deliver ${result.received}, below the minimum ${result.minimum} at ${slippage}% slippage; raise slippageTolerancePercentage or re-quote`,
        );
      }
      // The simulation is what executing now pays; a difference means the graph lags the chain.
      const gap = result.output > quote.plan.amountOut ? result.output - quote.plan.amountOut : quote.plan.amountOut - result.output;
      if (gap * 1_000_000n > quote.plan.amountOut)
        this.logger.warn(
          `${pair.network}: simulated output ${result.output} differs from the graph's ${quote.plan.amountOut} (${quote.input.symbol} -> ${quote.output.symbol})`,
        );
      outputAmount = result.output;
      gasLimit = result.gasLimit;
      gasShortfall = result.gasShortfall;
    }
    const reply = this.reply(quote, {
      sender,
      fee,
      feeAmount,
      amount,
      slippage,
      deadline,
      tx,
      outputAmount,
      gasLimit,
      isPermit: permit !== undefined,
    });
    if (explain) reply.explain = explainQuote(quote);
    // A sender without gas can still use the signed order (the relayer pays); without one, it is stuck.
    if (gasShortfall !== undefined && !reply.signedOrder)
      throw badRequest(`${gasShortfall}; this order has no signed-order variant the relayer could pay for`);
    await this.store?.save({
      orderId: reply.context!.orderId,
      network: pair.network,
      chainId: quote.deployment.chainId,
      sender,
      client: req.client,
      expiresAt: new Date(Number(deadline) * 1000),
      reply,
    });
    return reply;
  }

  private reply(quote: Quote, o: Omit<Parameters<typeof orderContext>[1], 'orderId' | 'signed'>): OrderReply {
    const orderId = randomUUID();
    const signed = signedVariant(quote, {
      sender: o.sender,
      partner: o.fee.partner,
      feeBps: o.fee.bps,
      feeAmount: o.feeAmount,
      inputAmount: o.amount,
      slippage: o.slippage,
      deadline: o.deadline,
      nonce: BigInt(`0x${orderId.replace(/-/g, '')}`),
      gasLimit: o.gasLimit,
      routeHash: o.tx.routeHash,
      submitter: this.relayers.get(quote.network) ?? ZERO_ADDRESS,
    });
    return {
      context: orderContext(quote, { ...o, orderId, signed }),
      tx: { to: o.tx.to, from: o.sender, data: o.tx.data, value: o.tx.value.toString(), gasLimit: o.gasLimit.toString() },
      signedOrder: signed?.typedData,
    };
  }
}
