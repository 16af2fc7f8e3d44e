/**
 * The shared core of estimate and order building: resolves the tokens in the network's graph,
 * reads the composed-token state the order needs, plans the route net of gas, and checks the
 * result is an order worth building (not draining the pools).
 */
import type { Network } from '@tokensvc/domain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { PinnedBlock } from '@tokensvc/messages';
import { ChainClients } from '../chain/chain-clients';
import { readComposedState } from '../chain/composed-state';
import { type NetworkDeployment, type RoutedDeployment, routerMissingMessage } from '../config/quote-config';
import { type CatalogToken, tokenKind, usdValue } from '../graph/catalog';
import type { LiquidityGraphs } from '../graph/liquidity-graphs';
import type { NetworkGraph } from '../graph/network-graph';
import { type MultiOrderPlan, type OrderPlan, type PlanEnv, planMultiOrder, planOrder } from '../planning/plan-order';
import { PlanError } from '../planning/plan-error';
import type { SimWorld } from '../planning/sim-world';
import { badRequest, type TokenPair } from './request-parsing';

/** Above this price impact an order is refused as too large for the pools. */
export const MAX_PRICE_IMPACT_PERCENT = 50;
/** Input the pools cannot take (swept back) above this share of the order is refused. */
export const MAX_RESIDUAL_PERCENT = 1;
const MAX_HOPS = 3;

export interface Quote {
  network: Network;
  deployment: RoutedDeployment;
  graph: NetworkGraph;
  input: CatalogToken;
  output: CatalogToken;
  world: SimWorld;
  plan: OrderPlan;
  gasPrice: bigint;
  /** route cost in percent of the input's USD value, when both prices are known */
  priceImpact: number | undefined;
  /** the graph block the plan was computed from (the snapshot's head) */
  pinned: PinnedBlock;
  /** what the plan needs to be explained: the route options, at the same snapshot */
  env: PlanEnv;
}

/** A multi-input quote: every input's catalog entry, in request order, and the plan from all of them. */
export interface MultiQuote extends Omit<Quote, 'input' | 'plan' | 'env'> {
  inputs: CatalogToken[];
  plan: MultiOrderPlan;
}

/** A network's graph head as the reply reports it. */
export function pinnedBlock(network: Network, head: { blockNumber: number; blockHash: string }): PinnedBlock {
  return { network, blockNumber: String(head.blockNumber), blockHash: head.blockHash };
}

/**
 * Every order, estimate and approval names the Router (tx.to, the approval spender), so a network
 * without one is refused before any work, with what to deploy and set.
 */
export function routedDeployment(deployments: ReadonlyMap<Network, NetworkDeployment>, network: Network): RoutedDeployment {
  const d = deployments.get(network);
  if (!d) throw badRequest(`network ${network} is not enabled on this service`);
  if (d.router === undefined) throw badRequest(routerMissingMessage(network));
  return d as RoutedDeployment;
}

export class QuoteEngine {
  constructor(
    private readonly graphs: LiquidityGraphs,
    private readonly chains: ChainClients,
    private readonly deployments: ReadonlyMap<Network, NetworkDeployment>,
  ) {}

  /** The network's deployment; a 400 when the network is not enabled or has no Router configured. */
  deployment(network: Network): RoutedDeployment {
    return routedDeployment(this.deployments, network);
  }

  /** The catalog entry of a token, or a 400 naming it. */
  token(graph: NetworkGraph, address: string, name: string): CatalogToken {
    const t = graph.token(address);
    if (!t) throw badRequest(`${name} ${graph.network}:${address} is not a supported token on ${graph.network}`);
    return t;
  }

  async quote(pair: TokenPair, amountIn: bigint): Promise<Quote> {
    const deployment = this.deployment(pair.network);
    const graph = this.graphs.get(pair.network);
    const input = this.token(graph, pair.input, 'inputToken');
    const output = this.token(graph, pair.output, 'outputToken');
    const client = this.chains.get(pair.network);
    const composed = [input, output].filter((t) => tokenKind(t) !== 'basic' && tokenKind(t) !== 'native');
    const [state, gasPrice] = await Promise.all([
      readComposedState(client, composed, (a) => graph.token(a)?.decimals),
      this.chains.gasPrice(pair.network),
    ]);
    // From here to the plan nothing waits: the pools and the block they are at come from one
    // snapshot, and an event arriving meanwhile reaches neither.
    const snapshot = graph.snapshot();
    const world: SimWorld = { pools: snapshot.pools, ...state };
    const env = this.planEnv(graph, deployment, gasPrice);
    let plan: OrderPlan;
    try {
      plan = planOrder(world, env, input, output, amountIn);
    } catch (e) {
      if (e instanceof PlanError) throw badRequest(planMessage(e));
      throw e;
    }
    const quote: Quote = {
      network: pair.network,
      deployment,
      graph,
      input,
      output,
      world,
      plan,
      gasPrice,
      priceImpact: priceImpact(graph, input, output, plan),
      pinned: pinnedBlock(pair.network, snapshot.head),
      env,
    };
    checkSize(quote);
    return quote;
  }

  /** Several inputs of one network into one output (addresses lowercase; amounts net of fees). */
  async quoteMulti(
    network: Network,
    inputs: ReadonlyArray<{ address: string; amount: bigint }>,
    outputAddress: string,
  ): Promise<MultiQuote> {
    const deployment = this.deployment(network);
    const graph = this.graphs.get(network);
    const tokens = inputs.map((i, n) => this.token(graph, i.address, `inputTokens[${n}]`));
    const output = this.token(graph, outputAddress, 'outputToken');
    const client = this.chains.get(network);
    const composed = [...tokens, output].filter((t) => tokenKind(t) !== 'basic' && tokenKind(t) !== 'native');
    const [state, gasPrice] = await Promise.all([
      readComposedState(client, composed, (a) => graph.token(a)?.decimals),
      this.chains.gasPrice(network),
    ]);
    const snapshot = graph.snapshot();
    const world: SimWorld = { pools: snapshot.pools, ...state };
    const env = this.planEnv(graph, deployment, gasPrice);
    let plan: MultiOrderPlan;
    try {
      plan = planMultiOrder(
        world,
        env,
        tokens.map((token, n) => ({ token, amount: inputs[n]!.amount })),
        output,
      );
    } catch (e) {
      if (e instanceof PlanError) throw badRequest(planMessage(e));
      throw e;
    }
    const inUsd = tokens.reduce((sum, t, n) => sum + usdValue(t, inputs[n]!.amount), 0);
    const outUsd = usdValue(output, plan.amountOut) + sweptUsd(graph, plan.steps);
    const impact = inUsd > 0 && outUsd > 0 ? Math.max(0, (1 - outUsd / inUsd) * 100) : undefined;
    if (impact !== undefined && impact > MAX_PRICE_IMPACT_PERCENT) {
      throw badRequest(
        `amount too large: the pools would take ${impact.toFixed(1)}% of the value in price impact (limit ${MAX_PRICE_IMPACT_PERCENT}%); trade less`,
      );
    }
    return {
      network,
      deployment,
      graph,
      inputs: tokens,
      output,
      world,
      plan,
      gasPrice,
      priceImpact: impact,
      pinned: pinnedBlock(network, snapshot.head),
    };
  }

  private planEnv(graph: NetworkGraph, deployment: NetworkDeployment, gasPrice: bigint): PlanEnv {
    const native = graph.token(ZERO_ADDRESS);
    return {
      token: (a) => graph.token(a),
      wrappedNative: deployment.wrappedNative,
      platformOf: (pool) => graph.pool(pool)?.platform ?? '',
      symbol: (a) => graph.token(a)?.symbol ?? a,
      maxHops: MAX_HOPS,
      outputPerGas: (token) => {
        const t = graph.token(token);
        if (!native || !t || native.priceUsd <= 0 || t.priceUsd <= 0) return 0;
        return (Number(gasPrice) / 1e18) * (native.priceUsd / t.priceUsd) * 10 ** t.decimals;
      },
    };
  }
}

function planMessage(e: PlanError): string {
  switch (e.failure) {
    case 'no-route':
      return `no route: ${e.message}`;
    case 'too-small':
      return `amount too small: ${e.message}`;
    case 'too-large':
      return `amount too large: ${e.message}`;
    case 'unsupported':
      return `unsupported: ${e.message}`;
  }
}

type Step = OrderPlan['steps'][number];

/** USD value of what sweeps return, over the given steps. */
function sweptUsd(graph: NetworkGraph, steps: readonly Step[]): number {
  return steps
    .filter((s) => s.action.kind === 'sweep')
    .flatMap((s) => s.outcome.spent)
    .reduce((sum, x) => sum + usdValue(graph.token(x.token) ?? { priceUsd: 0, decimals: 18 }, x.amount), 0);
}

function priceImpact(graph: NetworkGraph, input: CatalogToken, output: CatalogToken, plan: OrderPlan): number | undefined {
  const inUsd = usdValue(input, plan.amountIn);
  const outUsd = usdValue(output, plan.amountOut);
  if (inUsd <= 0 || outUsd <= 0) return undefined;
  // What comes back as residuals is not a cost.
  return Math.max(0, (1 - (outUsd + sweptUsd(graph, plan.steps)) / inUsd) * 100);
}

/** Refuses orders the pools cannot carry: too much price impact, or input coming back unswapped. */
function checkSize(q: Quote): void {
  if (q.priceImpact !== undefined && q.priceImpact > MAX_PRICE_IMPACT_PERCENT) {
    throw badRequest(
      `amount too large: the pools would take ${q.priceImpact.toFixed(1)}% of the value in price impact (limit ${MAX_PRICE_IMPACT_PERCENT}%); trade less`,
    );
  }
  // Zap residuals (dust of the pair tokens) are expected; anything else swept was not routed.
  const zapTokens = new Set(q.plan.steps.flatMap((s) => (s.action.kind === 'v2-add' ? [s.action.token0, s.action.token1] : [])));
  const unrouted = q.plan.steps.filter((s) => s.action.kind === 'sweep' && !zapTokens.has(s.action.token));
  const inputBack = unrouted
    .flatMap((s) => s.outcome.spent)
    .filter((x) => x.token === q.plan.tokenIn)
    .reduce((sum, x) => sum + x.amount, 0n);
  if (inputBack * 100n > q.plan.amountIn * BigInt(MAX_RESIDUAL_PERCENT)) {
    throw badRequest(
      `amount too large: the pools can take only ${q.plan.amountIn - inputBack} of ${q.plan.amountIn} (the rest would come back unswapped); trade less`,
    );
  }
  const inUsd = usdValue(q.input, q.plan.amountIn);
  const backUsd = sweptUsd(q.graph, unrouted);
  if (inUsd > 0 && (backUsd / inUsd) * 100 > MAX_RESIDUAL_PERCENT) {
    throw badRequest(
      `amount too large: the pools can take only part of it (${((backUsd / inUsd) * 100).toFixed(1)}% would come back unswapped); trade less`,
    );
  }
}
