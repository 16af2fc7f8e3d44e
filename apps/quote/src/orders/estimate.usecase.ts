/**
 * GET /v2/portal/estimate: the output of a same-chain order without a sender (cross-chain
 * estimates are CrossChainOrders', chosen by the controller). Quoted off-chain from the
 * liquidity graph, then, when the token's storage layout allows it, simulated on-chain from a
 * sender given the input by state overrides (`simulated: true`). Needs no balance or approval.
 */
import { ZERO_ADDRESS, tokenKey } from '@tokensvc/domain';
import type { EstimateReply, EstimateRequest } from '@tokensvc/messages';
import type { ChainClients } from '../chain/chain-clients';
import type { RouterDirectory } from '../chain/router-directory';
import { simulateTx } from '../chain/simulate';
import type { StateOverride, StateOverrides } from '../chain/state-overrides';
import { usdValue } from '../graph/catalog';
import { QUOTE_METRICS, timedBuild } from '../metrics';
import { explainQuote } from './explain-quote';
import { buildOrderTx, orderCalls } from './order-tx';
import type { Quote, QuoteEngine } from './quote-engine';
import { parsePair, parsePositiveAmount, parseSlippage } from './request-parsing';
import { SIMULATION_SENDER } from './simulation-sender';
import { autoSlippage, bufferedGas, minOutput, round6 } from './slippage';

const NATIVE_HEADROOM = 10n ** 21n;

export class EstimateUseCase {
  constructor(
    private readonly engine: QuoteEngine,
    private readonly chains: ChainClients,
    private readonly routers: RouterDirectory,
    private readonly overrides: StateOverrides,
    private readonly validitySeconds: number,
  ) {}

  execute(req: EstimateRequest): Promise<EstimateReply> {
    return timedBuild('estimate', () => this.estimate(req));
  }

  private async estimate(req: EstimateRequest): Promise<EstimateReply> {
    const pair = parsePair(req.inputToken, req.outputToken);
    const amount = parsePositiveAmount(req.inputAmount, 'inputAmount');
    const requested = parseSlippage(req.slippageTolerancePercentage);
    const quote = await this.engine.quote(pair, amount);
    // A route whose calls cannot be built (e.g. a V3 hop on a platform naming no swap router) is
    // refused with the order's 400, not estimated (the simulation below swallows its errors).
    orderCalls(quote, { executor: ZERO_ADDRESS, recipient: SIMULATION_SENDER, deadline: 0n });
    const simulated = await this.simulate(quote, amount);
    const outputAmount = simulated?.output ?? quote.plan.amountOut;
    const slippage = requested ?? Math.min(autoSlippage(quote.priceImpact), 10);
    const min = minOutput(outputAmount, slippage);
    const inputKey = tokenKey(pair.network, quote.input.address);
    const outputKey = tokenKey(pair.network, quote.output.address);
    return {
      outputToken: outputKey,
      outputAmount: outputAmount.toString(),
      minOutputAmount: min.toString(),
      outputTokenDecimals: quote.output.decimals,
      context: {
        inputToken: inputKey,
        inputAmount: amount.toString(),
        inputAmountUsd: round6(usdValue(quote.input, amount)),
        outputToken: outputKey,
        outputAmount: outputAmount.toString(),
        outputAmountUsd: round6(usdValue(quote.output, outputAmount)),
        minOutputAmountUsd: round6(usdValue(quote.output, min)),
        slippageTolerancePercentage: slippage,
        simulated: simulated !== undefined,
        gasLimit: bufferedGas(simulated?.gas ?? BigInt(quote.plan.gas)).toString(),
        pinnedBlocks: [quote.pinned],
      },
      explain: req.explain ? explainQuote(quote) : undefined,
    };
  }

  /** The order run by eth_call from a sender that holds the input through state overrides. */
  private async simulate(quote: Quote, amount: bigint): Promise<{ output: bigint; gas: bigint } | undefined> {
    const client = this.chains.get(quote.network);
    const router = quote.deployment.router;
    const native = quote.input.address === ZERO_ADDRESS;
    let overrides: StateOverride | undefined;
    const counted = (outcome: 'ok' | 'reverted' | 'error' | 'skipped'): void =>
      QUOTE_METRICS.simulations.inc({ network: quote.network, outcome });
    try {
      overrides = native
        ? this.overrides.native(SIMULATION_SENDER, amount + NATIVE_HEADROOM)
        : await this.overrides.forToken(client, quote.input.address, SIMULATION_SENDER, router, amount);
      if (!overrides) {
        counted('skipped');
        return undefined;
      }
      const executor = await this.routers.executor(quote.network, router);
      const deadline = BigInt((await this.chains.now(quote.network)) + this.validitySeconds);
      const tx = buildOrderTx(quote, {
        sender: SIMULATION_SENDER,
        recipient: SIMULATION_SENDER,
        partner: ZERO_ADDRESS,
        feeBps: 0,
        inputAmount: amount,
        minOutputAmount: 0n,
        deadline,
        executor,
      });
      const outcome = await simulateTx(client, { from: SIMULATION_SENDER, to: tx.to, data: tx.data, value: tx.value }, overrides);
      counted(outcome.ok ? 'ok' : 'reverted');
      return outcome.ok ? { output: outcome.output, gas: outcome.gas } : undefined;
    } catch {
      // An estimate stays useful off-chain when the node cannot simulate (no overrides, timeouts).
      counted('error');
      return undefined;
    }
  }
}
