/**
 * GET /v2/portal/multi and /v2/portal/multi/estimate: several inputs of one network into one
 * output token in one Router transaction (Router.executeMulti, or executeMultiWithPermits with one
 * permit per input). The estimate is the planner's exact simulation of the route (no sender); the
 * order is simulated on chain from the sender when validate=true, after each input's balance and
 * allowance are read, so a failure names its input. Multi-input orders are not stored for relaying.
 */
import { randomUUID } from 'node:crypto';
import { Interface } from 'ethers';
import { multiInputProblem } from '@tokensvc/api';
import { decodeUintResult, multicall } from '@tokensvc/chain';
import {
  type MultiRouterOrder,
  type PermitParams,
  encodeExecuteMulti,
  encodeExecuteMultiWithPermits,
  routeHash,
} from '@tokensvc/contracts';
import { ZERO_ADDRESS, type Network } from '@tokensvc/domain';
import type { MultiOrderContext, MultiOrderReply, MultiOrderRequest } from '@tokensvc/messages';
import type { ChainClients, ChainClock } from '../chain/chain-clients';
import type { RouterDirectory } from '../chain/router-directory';
import { simulateTx } from '../chain/simulate';
import { usdValue } from '../graph/catalog';
import { timedBuild } from '../metrics';
import { stepDescriptions } from './describe-steps';
import { orderCalls, permitParams } from './order-tx';
import type { MultiQuote, QuoteEngine } from './quote-engine';
import {
  AUTO_SLIPPAGE_CAP,
  badRequest,
  parseAddress,
  parseKey,
  parsePartnerFee,
  parsePermitDeadline,
  parsePositiveAmount,
  parseSlippage,
} from './request-parsing';
import { autoSlippage, autoSlippageExceeded, bufferedGas, minOutput } from './slippage';

const ERC20 = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address,address) view returns (uint256)',
]);

interface Parsed {
  network: Network;
  inputs: Array<{ address: string; amount: bigint; fee: bigint }>;
  output: string;
  slippage: number | undefined;
  fee: { partner: string; bps: number };
}

function parse(req: MultiOrderRequest): Parsed {
  const problem = multiInputProblem(req.inputTokens, req.inputAmounts, req.outputToken);
  if (problem) throw badRequest(problem);
  const keys = req.inputTokens.map((k, n) => parseKey(k, `inputTokens[${n}]`));
  const output = parseKey(req.outputToken, 'outputToken');
  const fee = req.estimateOnly ? { partner: ZERO_ADDRESS, bps: 0 } : parsePartnerFee(req.partner, req.feePercentage);
  const inputs = keys.map((k, n) => {
    const amount = parsePositiveAmount(req.inputAmounts[n]!, `inputAmounts[${n}]`);
    return { address: k.address, amount, fee: (amount * BigInt(fee.bps)) / 10_000n };
  });
  return { network: output.network, inputs, output: output.address, slippage: parseSlippage(req.slippageTolerancePercentage), fee };
}

export class MultiOrderUseCase {
  constructor(
    private readonly engine: QuoteEngine,
    private readonly chains: ChainClients,
    private readonly routers: RouterDirectory,
    private readonly clock: ChainClock,
    private readonly validitySeconds: number,
  ) {}

  execute(req: MultiOrderRequest): Promise<MultiOrderReply> {
    return timedBuild(req.estimateOnly ? 'estimate' : 'zap', () => (req.estimateOnly ? this.estimate(req) : this.build(req)));
  }

  private async estimate(req: MultiOrderRequest): Promise<MultiOrderReply> {
    const p = parse(req);
    const quote = await this.engine.quoteMulti(p.network, p.inputs, p.output);
    const slippage = this.slippage(p, quote);
    return {
      context: this.context(quote, p, {
        slippage,
        gasLimit: bufferedGas(quote.plan.gas),
        simulated: false,
        isPermit: false,
        value: 0n,
        orderId: '',
      }),
    };
  }

  private async build(req: MultiOrderRequest): Promise<MultiOrderReply> {
    const p = parse(req);
    const sender = parseAddress(req.sender ?? '', 'sender', { allowZero: false });
    const permits = await this.permits(req, p);
    const quote = await this.engine.quoteMulti(
      p.network,
      p.inputs.map((i) => ({ address: i.address, amount: i.amount - i.fee })),
      p.output,
    );
    const slippage = this.slippage(p, quote);
    const executor = await this.routers.executor(p.network, quote.deployment.router);
    const deadline = BigInt((await this.clock.now(p.network)) + this.validitySeconds);
    const calls = orderCalls(quote, { executor, recipient: sender, deadline });
    const order: MultiRouterOrder = {
      inputTokens: p.inputs.map((i) => i.address),
      inputAmounts: p.inputs.map((i) => i.amount),
      outputToken: p.output,
      minOutputAmount: minOutput(quote.plan.amountOut, slippage),
      recipient: sender,
      partner: p.fee.partner,
      feeBps: p.fee.bps,
      deadline,
    };
    const value = p.inputs.find((i) => i.address === ZERO_ADDRESS)?.amount ?? 0n;
    const data = permits ? encodeExecuteMultiWithPermits(order, permits, calls) : encodeExecuteMulti(order, calls);
    const tx = { to: quote.deployment.router, data, value };
    let gasLimit = bufferedGas(quote.plan.gas);
    let simulated = false;
    if (req.validate ?? true) {
      await this.checkFunds(quote, p, sender, tx.to, permits !== undefined);
      const outcome = await simulateTx(this.chains.get(p.network), { from: sender, ...tx });
      if (!outcome.ok) {
        if (outcome.error?.name === 'InsufficientOutput') {
          throw badRequest(
            `execution reverted: slippage exceeded: executing now would deliver ${String(outcome.error.args[0])}, below the minimum ${order.minOutputAmount} at ${slippage}% slippage; raise slippageTolerancePercentage or re-quote`,
          );
        }
        if (outcome.error?.name === 'PermitFailed')
          throw badRequest(
            'transfer-from failed: a permit was rejected: each of permitSignatures must sign a permit of exactly its input amount to the Router (context.target) with permitDeadline and the current nonce',
          );
        throw badRequest(`execution reverted: ${outcome.message}; re-quote, or trade different amounts`);
      }
      gasLimit = bufferedGas(outcome.gas);
      simulated = true;
    }
    const context = this.context(quote, p, {
      slippage,
      gasLimit,
      simulated,
      isPermit: permits !== undefined,
      value,
      orderId: randomUUID(),
      sender,
      routeHash: routeHash(calls),
      minOutputAmount: order.minOutputAmount,
    });
    return { context, tx: { to: tx.to, from: sender, data: tx.data, value: value.toString(), gasLimit: gasLimit.toString() } };
  }

  private slippage(p: Parsed, quote: MultiQuote): number {
    const slippage = p.slippage ?? autoSlippage(quote.priceImpact);
    if (p.slippage === undefined && slippage > AUTO_SLIPPAGE_CAP) throw badRequest(autoSlippageExceeded(slippage));
    return slippage;
  }

  /** One permit per input, or undefined for approvals. */
  private async permits(req: MultiOrderRequest, p: Parsed): Promise<PermitParams[] | undefined> {
    if (req.permitSignatures.length === 0) return undefined;
    if (req.permitSignatures.length !== p.inputs.length)
      throw badRequest(`permitSignatures must have one signature per input (${p.inputs.length})`);
    if (p.inputs.some((i) => i.address === ZERO_ADDRESS))
      throw badRequest('permitSignatures cannot be used with a native input (it needs no approval): leave permitSignatures out');
    const deadline = await parsePermitDeadline(req.permitDeadline, () => this.clock.now(p.network));
    return req.permitSignatures.map((sig, n) => permitParams(sig, p.inputs[n]!.amount, deadline));
  }

  /** Every input's balance (and allowance, unless permits pull them), so a failure names its input. */
  private async checkFunds(quote: MultiQuote, p: Parsed, sender: string, router: string, permits: boolean): Promise<void> {
    const client = this.chains.get(p.network);
    const erc20 = p.inputs.filter((i) => i.address !== ZERO_ADDRESS);
    const results = (
      await multicall(
        client,
        erc20.flatMap((i) => [
          { target: i.address, data: ERC20.encodeFunctionData('balanceOf', [sender]) },
          { target: i.address, data: ERC20.encodeFunctionData('allowance', [sender, router]) },
        ]),
      )
    ).map(decodeUintResult);
    erc20.forEach((input, n) => {
      const symbol = quote.inputs[p.inputs.indexOf(input)]!.symbol;
      const [balance, allowance] = [results[2 * n] ?? 0n, results[2 * n + 1] ?? 0n];
      if (balance < input.amount)
        throw badRequest(
          `transfer-from failed: insufficient balance: the sender holds ${balance} of the ${input.amount} ${symbol} the order spends`,
        );
      if (!permits && allowance < input.amount)
        throw badRequest(
          `transfer-from failed: insufficient approval: the sender allows the Router (${router}) ${allowance} of the ${input.amount} ${symbol} it spends; approve it first (GET /v2/approval for that input), or pass permitSignatures`,
        );
    });
    const native = p.inputs.find((i) => i.address === ZERO_ADDRESS);
    if (native) {
      const balance = BigInt(await client.call<string>('eth_getBalance', [sender, 'latest']));
      if (balance < native.amount)
        throw badRequest(`insufficient funds: the sender holds ${balance} wei of the native token and the order sends ${native.amount}`);
    }
  }

  private context(
    quote: MultiQuote,
    p: Parsed,
    o: {
      slippage: number;
      gasLimit: bigint;
      simulated: boolean;
      isPermit: boolean;
      value: bigint;
      orderId: string;
      sender?: string;
      routeHash?: string;
      minOutputAmount?: bigint;
    },
  ): MultiOrderContext {
    const key = (address: string): string => `${quote.network}:${address}`;
    const nativeInput = p.inputs.find((i) => i.address === ZERO_ADDRESS);
    const planForText = {
      ...quote.plan,
      tokenIn: quote.deployment.wrappedNative,
      amountIn: nativeInput ? nativeInput.amount - nativeInput.fee : 0n,
    };
    const nativeSymbol = quote.graph.token(ZERO_ADDRESS)?.symbol ?? 'ETH';
    const minOut = o.minOutputAmount ?? minOutput(quote.plan.amountOut, o.slippage);
    const inputs = p.inputs.map((i, n) => ({
      token: key(i.address),
      amount: i.amount.toString(),
      amountUsd: usdValue(quote.inputs[n]!, i.amount),
      feeAmount: i.fee.toString(),
    }));
    return {
      orderId: o.orderId,
      inputs,
      inputAmountUsd: inputs.reduce((sum, i) => sum + i.amountUsd, 0),
      outputToken: key(p.output),
      outputAmount: quote.plan.amountOut.toString(),
      outputAmountUsd: usdValue(quote.output, quote.plan.amountOut),
      minOutputAmount: minOut.toString(),
      minOutputAmountUsd: usdValue(quote.output, minOut),
      outputTokenDecimals: quote.output.decimals,
      slippageTolerancePercentage: o.slippage,
      target: quote.deployment.router.toLowerCase(),
      partner: p.fee.bps > 0 ? p.fee.partner : undefined,
      feePercentage: p.fee.bps > 0 ? p.fee.bps / 100 : undefined,
      sender: o.sender,
      recipient: o.sender,
      value: o.value.toString(),
      routeHash: o.routeHash,
      steps: stepDescriptions(planForText, (a) => quote.graph.token(a), nativeInput !== undefined, p.output === ZERO_ADDRESS, nativeSymbol),
      residualTokens: quote.plan.residualTokens.map(key),
      gasLimit: o.gasLimit.toString(),
      simulated: o.simulated,
      isPermit: o.isPermit,
      priceImpactPercentage: quote.priceImpact,
      pinnedBlocks: [quote.pinned],
    };
  }
}
