/**
 * Plans an order from any token to any token on one network: leave a composed input (burn LP,
 * redeem vault shares, withdraw a lending position), route every token that yields into what the
 * output is made of (split/multi-hop swaps), enter a composed output (swap to the pair's ratio and
 * add liquidity, deposit, supply), and sweep residuals back. Pure: it reads the world it is given
 * and predicts the output exactly by simulating the executor.
 */
import { type PlatformFamily, isPlatformFamily } from '@tokensvc/domain';
import type { CatalogToken } from '../graph/catalog';
import { tokenKind } from '../graph/catalog';
import { type Action, BPS } from '@tokensvc/protocols';
import { ExecutorSim, SimRevert } from './executor-sim';
import { BASE_GAS, actionGas } from './gas';
import { PlanError } from './plan-error';
import { type AppliedAction, type RouteEnv, routeInto } from './route-into';
import type { SimWorld } from './sim-world';
import { depositSwap } from './v2-deposit';

export interface PlanEnv extends RouteEnv {
  token(address: string): CatalogToken | undefined;
  wrappedNative: string;
}

export interface OrderPlan {
  /** what the steps start from (WETH for native input: see `wrapNative`) */
  tokenIn: string;
  amountIn: bigint;
  /** what the steps end with for the recipient (WETH for native output: see `unwrapNative`) */
  tokenOut: string;
  amountOut: bigint;
  /**
   * The network's wrapped native token when an input is native. The Router has one address on
   * every chain and names no WETH, so it hands native input to the executor as native: the calls
   * start by wrapping all of it into this token (wrapAllCall), and the steps spend it as that token.
   */
  wrapNative?: string;
  /** The network's wrapped native token when the output is native: the calls end by unwrapping all of it (unwrapAllCall), and the executor sends its native to the recipient. */
  unwrapNative?: string;
  steps: AppliedAction[];
  gas: number;
  /** tokens swept back to the recipient (zap residuals, input a drained pool could not take) */
  residualTokens: string[];
}

const ZERO = '0x0000000000000000000000000000000000000000';
/** Above this many tokens to route into a pair, the zap tries only "all to token0" and "all to token1". */
const MAX_ASSIGNED_SOURCES = 4;

/** Native in and out travel as the wrapped token inside the executor. */
export function executorToken(address: string, wrappedNative: string): string {
  return address === ZERO ? wrappedNative : address;
}

/** The protocol family of a composed token (its kind came from that family's module). */
function familyOf(token: CatalogToken): PlatformFamily {
  if (!isPlatformFamily(token.family))
    throw new PlanError('unsupported', `${token.symbol} belongs to ${token.family}, which no protocol module handles`);
  return token.family;
}

function lendingPool(token: CatalogToken): string {
  if (!token.poolAddress) throw new PlanError('unsupported', `${token.symbol} names no lending pool to supply to or withdraw from`);
  return token.poolAddress;
}

function exitAction(token: CatalogToken, world: SimWorld): Action | undefined {
  switch (tokenKind(token)) {
    case 'v2-lp': {
      const pool = world.pools.get(token.address);
      if (!pool) throw new PlanError('no-route', `${token.symbol} is an LP token whose pair is not in the liquidity graph`);
      return { kind: 'v2-burn', family: familyOf(token), pair: token.address, token0: pool.token0, token1: pool.token1 };
    }
    case 'vault':
      return { kind: 'vault-redeem', family: familyOf(token), vault: token.address, asset: token.underlying[0]! };
    case 'lending':
      return {
        kind: 'lending-withdraw',
        family: familyOf(token),
        pool: lendingPool(token),
        asset: token.underlying[0]!,
        aToken: token.address,
      };
    case 'native':
    case 'basic':
      return undefined;
  }
}

type Entry =
  | { kind: 'swap-into'; target: string }
  | { kind: 'zap-v2'; family: PlatformFamily; pair: string; token0: string; token1: string; platform: string }
  | { kind: 'final'; target: string; action: Action };

function entryFor(token: CatalogToken, tokenOut: string, world: SimWorld, env: PlanEnv): Entry {
  switch (tokenKind(token)) {
    case 'v2-lp': {
      const pool = world.pools.get(token.address);
      if (!pool) throw new PlanError('no-route', `${token.symbol} is an LP token whose pair is not in the liquidity graph`);
      return {
        kind: 'zap-v2',
        family: familyOf(token),
        pair: token.address,
        token0: pool.token0,
        token1: pool.token1,
        platform: env.platformOf(token.address),
      };
    }
    case 'vault':
      return {
        kind: 'final',
        target: token.underlying[0]!,
        action: { kind: 'vault-deposit', family: familyOf(token), vault: token.address, asset: token.underlying[0]! },
      };
    case 'lending':
      return {
        kind: 'final',
        target: token.underlying[0]!,
        action: {
          kind: 'lending-supply',
          family: familyOf(token),
          pool: lendingPool(token),
          asset: token.underlying[0]!,
          aToken: token.address,
        },
      };
    case 'native':
    case 'basic':
      return { kind: 'swap-into', target: tokenOut };
  }
}

function apply(sim: ExecutorSim, action: Action): AppliedAction {
  return { action, outcome: sim.apply(action) };
}

/** Route every held token except `keep` into `target`, largest holdings first. */
function gather(sim: ExecutorSim, env: PlanEnv, target: string, keep: ReadonlySet<string>, exclude?: ReadonlySet<string>): AppliedAction[] {
  const sources = sim.holdings().filter((h) => h.token !== target && !keep.has(h.token));
  return sources.flatMap((s) => routeInto(sim, env, s.token, target, exclude));
}

/** Every way to send the holdings that are not pair tokens to one of the two pair tokens. */
function assignments(sources: readonly string[], token0: string, token1: string): Array<Map<string, string>> {
  // 2^n plans: beyond a few sources (multi-input zaps of up to 10 tokens) only the two uniform ones.
  if (sources.length > MAX_ASSIGNED_SOURCES) return [token0, token1].map((t) => new Map(sources.map((s) => [s, t])));
  let out: Array<Map<string, string>> = [new Map()];
  for (const s of sources) out = out.flatMap((m) => [new Map(m).set(s, token0), new Map(m).set(s, token1)]);
  return out;
}

/** Zap into a V2 pair: route other holdings to a pair token, balance through the pair, add liquidity. */
function zapV2(base: ExecutorSim, env: PlanEnv, e: Extract<Entry, { kind: 'zap-v2' }>): { sim: ExecutorSim; steps: AppliedAction[] } {
  const pairTokens = new Set([e.token0, e.token1]);
  const others = base
    .holdings()
    .map((h) => h.token)
    .filter((t) => !pairTokens.has(t));
  let best: { sim: ExecutorSim; steps: AppliedAction[]; liquidity: bigint } | undefined;
  let lastError: unknown;
  for (const assignment of assignments(others, e.token0, e.token1)) {
    try {
      const sim = base.clone();
      const steps: AppliedAction[] = [];
      // The pair itself is left out of the routes so the ratio maths sees it untouched.
      for (const [source, target] of assignment) steps.push(...routeInto(sim, env, source, target, new Set([e.pair])));
      const pool = sim.world().pools.get(e.pair)!;
      if (pool.shape !== 'constant-product') throw new PlanError('unsupported', `${e.pair} is not a V2 pair`);
      const held = sim.balance(pool.token0);
      const swap = depositSwap(pool, held, sim.balance(pool.token1));
      if (swap.tokenIn) {
        const balance = sim.balance(swap.tokenIn);
        const bps = Number((swap.amount * BigInt(BPS) + balance / 2n) / balance);
        if (bps > 0) {
          const tokenOut = swap.tokenIn === pool.token0 ? pool.token1 : pool.token0;
          steps.push(
            apply(sim, {
              kind: 'swap',
              pool: e.pair,
              family: pool.family,
              platform: e.platform,
              fee: pool.fee,
              tokenIn: swap.tokenIn,
              tokenOut,
              bps: Math.min(bps, BPS - 1),
            }),
          );
        }
      }
      steps.push(
        apply(sim, { kind: 'v2-add', family: e.family, pair: e.pair, platform: e.platform, token0: pool.token0, token1: pool.token1 }),
      );
      const liquidity = sim.balance(e.pair);
      if (!best || liquidity > best.liquidity) best = { sim, steps, liquidity };
    } catch (err) {
      lastError = err;
    }
  }
  if (!best) throw lastError;
  return best;
}

export function planOrder(world: SimWorld, env: PlanEnv, inputToken: CatalogToken, outputToken: CatalogToken, amountIn: bigint): OrderPlan {
  const tokenIn = executorToken(inputToken.address, env.wrappedNative);
  const tokenOut = executorToken(outputToken.address, env.wrappedNative);
  const native = nativeLegs(env, [inputToken], outputToken);
  if (tokenIn === tokenOut) {
    const sim = new ExecutorSim(world);
    sim.credit(tokenIn, amountIn);
    return { ...finish(sim, [], tokenIn, amountIn, tokenOut, []), ...native };
  }
  const planned = planInto(world, env, [{ token: inputToken, amount: amountIn }], outputToken);
  return { ...finish(planned.sim, planned.steps, tokenIn, amountIn, tokenOut, planned.alwaysSweep), ...native };
}

/** The wrap of a native input and the unwrap of a native output the calls add around the steps. */
function nativeLegs(env: PlanEnv, inputs: readonly CatalogToken[], output: CatalogToken): Pick<OrderPlan, 'wrapNative' | 'unwrapNative'> {
  return {
    ...(inputs.some((t) => t.address === ZERO) ? { wrapNative: env.wrappedNative } : {}),
    ...(output.address === ZERO ? { unwrapNative: env.wrappedNative } : {}),
  };
}

export interface PlanInput {
  token: CatalogToken;
  amount: bigint;
}

/** A multi-input order's plan: every input's executor token and amount, then the same route fields. */
export interface MultiOrderPlan extends Omit<OrderPlan, 'tokenIn' | 'amountIn'> {
  inputs: Array<{ tokenIn: string; amountIn: bigint }>;
}

/**
 * Several inputs (distinct, none the output) into one output: the executor holds them all at once,
 * each composed input is left, every holding is routed into what the output is made of, and the
 * output is entered once. The order of the inputs does not matter; the routes take the largest first.
 */
export function planMultiOrder(world: SimWorld, env: PlanEnv, inputs: readonly PlanInput[], outputToken: CatalogToken): MultiOrderPlan {
  const tokenOut = executorToken(outputToken.address, env.wrappedNative);
  const planned = planInto(world, env, inputs, outputToken);
  const {
    tokenIn: _tokenIn,
    amountIn: _amountIn,
    ...rest
  } = finish(planned.sim, planned.steps, tokenOut, 0n, tokenOut, planned.alwaysSweep);
  return {
    ...rest,
    ...nativeLegs(
      env,
      inputs.map((i) => i.token),
      outputToken,
    ),
    inputs: inputs.map((i) => ({ tokenIn: executorToken(i.token.address, env.wrappedNative), amountIn: i.amount })),
  };
}

function planInto(
  world: SimWorld,
  env: PlanEnv,
  inputs: readonly PlanInput[],
  outputToken: CatalogToken,
): { sim: ExecutorSim; steps: AppliedAction[]; alwaysSweep: string[] } {
  const tokenOut = executorToken(outputToken.address, env.wrappedNative);
  const sim = new ExecutorSim(world);
  for (const i of inputs) sim.credit(executorToken(i.token.address, env.wrappedNative), i.amount);
  const steps: AppliedAction[] = [];
  try {
    const entry = entryFor(outputToken, tokenOut, world, env);
    for (const i of inputs) {
      const exit = exitAction(i.token, world);
      if (exit) steps.push(apply(sim, exit));
    }
    let final = sim;
    switch (entry.kind) {
      case 'swap-into':
        steps.push(...gather(sim, env, entry.target, new Set()));
        break;
      case 'final':
        steps.push(...gather(sim, env, entry.target, new Set()));
        steps.push(apply(sim, entry.action));
        break;
      case 'zap-v2': {
        const zap = zapV2(sim, env, entry);
        steps.push(...zap.steps);
        final = zap.sim;
        break;
      }
    }
    return { sim: final, steps, alwaysSweep: entry.kind === 'zap-v2' ? [entry.token0, entry.token1] : [] };
  } catch (e) {
    if (e instanceof SimRevert)
      throw new PlanError(e.reason === 'no-liquidity' ? 'too-large' : e.reason === 'zero-amount' ? 'too-small' : 'no-route', e.message);
    throw e;
  }
}

/** Sweeps residuals (always both pair tokens after a zap: a changed chain may leave either). */
function finish(
  sim: ExecutorSim,
  steps: AppliedAction[],
  tokenIn: string,
  amountIn: bigint,
  tokenOut: string,
  alwaysSweep: readonly string[],
): OrderPlan {
  const residual = new Set([...sim.holdings().map((h) => h.token), ...alwaysSweep].filter((t) => t !== tokenOut));
  for (const token of residual) steps.push(apply(sim, { kind: 'sweep', token }));
  const amountOut = sim.balance(tokenOut);
  if (amountOut === 0n) throw new PlanError('too-small', 'the order would deliver nothing: the amount is too small');
  const gas = steps.reduce((g, s) => g + actionGas(s.action, s.outcome.ticksCrossed), BASE_GAS);
  return { tokenIn, amountIn, tokenOut, amountOut, steps, gas, residualTokens: [...residual] };
}

/** Runs the same actions for another input amount (the signed-order variant, less the relayer fee). */
export function replayPlan(world: SimWorld, plan: OrderPlan, amountIn: bigint): bigint {
  const sim = new ExecutorSim(world);
  sim.credit(plan.tokenIn, amountIn);
  for (const s of plan.steps) sim.apply(s.action);
  return sim.balance(plan.tokenOut);
}
