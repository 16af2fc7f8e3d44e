import { buildGraph, findRoute, mintLiquidity, previewDeposit, previewRedeem } from '@tokensvc/routing';
import { AUSDC, D, ENV, LONELY, NATIVE, TOKENS, U, VAULT, W, WU, X, amount, fixtureWorld } from './plan.fixture';
import { PlanError } from './plan-error';
import { planOrder, replayPlan } from './plan-order';

const { e18, e6 } = amount;
const t = (a: string) => TOKENS[a]!;
const kinds = (p: ReturnType<typeof planOrder>) => p.steps.map((s) => s.action.kind);

describe('planOrder', () => {
  it('a basic swap is the routing library’s best route, executed leg by leg', () => {
    const world = fixtureWorld();
    const plan = planOrder(world, ENV, t(D), t(X), 20_000n * e18);
    const direct = findRoute(buildGraph([...world.pools.values()]), { tokenIn: D, tokenOut: X, amountIn: 20_000n * e18 });
    expect(plan.amountOut).toBe(direct!.amountOut);
    expect(kinds(plan).every((k) => k === 'swap')).toBe(true);
    expect(plan.residualTokens).toEqual([]);
    expect(replayPlan(world, plan, plan.amountIn)).toBe(plan.amountOut);
    // the world given is never mutated
    expect(world.pools.get(WU)).toEqual(fixtureWorld().pools.get(WU));
  });

  // The Router names no WETH (one address on every chain): the plan says which native legs its
  // calls wrap and unwrap (orderCalls adds them around the steps).
  it('native in and out travel as WETH between the wrap and the unwrap the plan names; WETH <-> native needs no step', () => {
    const world = fixtureWorld();
    const out = planOrder(world, ENV, t(NATIVE), t(U), 2n * e18);
    expect(out.tokenIn).toBe(W);
    expect(out.wrapNative).toBe(W);
    expect(out.unwrapNative).toBeUndefined();
    const unwrap = planOrder(world, ENV, t(W), t(NATIVE), 5n * e18);
    expect(unwrap.steps).toEqual([]);
    expect(unwrap.amountOut).toBe(5n * e18);
    expect(unwrap.unwrapNative).toBe(W);
    expect(unwrap.wrapNative).toBeUndefined();
    const wrap = planOrder(world, ENV, t(NATIVE), t(W), 5n * e18);
    expect(wrap.steps).toEqual([]);
    expect(wrap.wrapNative).toBe(W);
    const erc20 = planOrder(world, ENV, t(U), t(W), 5n * e6);
    expect([erc20.wrapNative, erc20.unwrapNative]).toEqual([undefined, undefined]);
  });

  it('zaps into a V2 LP token: route to a pair token, swap to the ratio, add liquidity, sweep both tokens', () => {
    const world = fixtureWorld();
    const plan = planOrder(world, ENV, t(D), t(WU), 30_000n * e18);
    expect(kinds(plan)).toEqual(expect.arrayContaining(['swap', 'v2-add', 'sweep']));
    const sweeps = plan.steps.filter((s) => s.action.kind === 'sweep');
    expect(sweeps.map((s) => (s.action.kind === 'sweep' ? s.action.token : '')).sort()).toEqual([W, U].sort());
    // Residuals are dust: under 0.05 % of the value that went in.
    const add = plan.steps.find((s) => s.action.kind === 'v2-add')!;
    const depositedUsdc = add.outcome.spent.find((x) => x.token === U)!.amount;
    const residualUsdc = sweeps.flatMap((s) => s.outcome.spent).find((x) => x.token === U)!.amount;
    const residualWethInUsdc = (sweeps.flatMap((s) => s.outcome.spent).find((x) => x.token === W)!.amount * 3000n * e6) / e18;
    expect((residualUsdc + residualWethInUsdc) * 2_000n).toBeLessThan(depositedUsdc * 2n);
    expect(plan.amountOut).toBe(add.outcome.received[0]!.amount);
  });

  it('zapping a pair token needs no route before the ratio swap', () => {
    const plan = planOrder(fixtureWorld(), ENV, t(U), t(WU), 50_000n * e6);
    expect(kinds(plan)).toEqual(['swap', 'v2-add', 'sweep', 'sweep']);
    expect(plan.steps[0]!.action).toMatchObject({ kind: 'swap', pool: WU, tokenIn: U });
  });

  it('zaps out of an LP token: burn, then route both halves (shares re-based when routes meet)', () => {
    const world = fixtureWorld();
    const liquidity = 10n ** 14n;
    const plan = planOrder(world, ENV, t(WU), t(X), liquidity);
    expect(plan.steps[0]!.action.kind).toBe('v2-burn');
    expect(plan.residualTokens).toEqual([]);
    expect(replayPlan(world, plan, liquidity)).toBe(plan.amountOut);
    expect(plan.amountOut).toBeGreaterThan(0n);
  });

  it('LP minted on a zap equals the pair’s mint maths on the state after the ratio swap', () => {
    const world = fixtureWorld();
    const plan = planOrder(world, ENV, t(U), t(WU), 10_000n * e6);
    const swap = plan.steps[0]!;
    const pool = world.pools.get(WU)!;
    if (pool.shape !== 'constant-product') throw new Error('fixture');
    const sold = swap.outcome.spent[0]!.amount;
    const bought = swap.outcome.received[0]!.amount;
    const after = {
      ...pool,
      reserve0: pool.reserve0 - bought,
      reserve1: pool.reserve1 + sold,
      totalSupply: world.pairs.get(WU)!.totalSupply,
    };
    const add = plan.steps[1]!.outcome.spent;
    expect(plan.amountOut).toBe(mintLiquidity(after, add[0]!.amount, add[1]!.amount));
  });

  it('vaults: deposit and redeem with the ERC-4626 previews', () => {
    const world = fixtureWorld();
    const vault = world.vaults.get(VAULT)!;
    expect(planOrder(world, ENV, t(U), t(VAULT), 1_000n * e6).amountOut).toBe(previewDeposit(vault, 1_000n * e6));
    const redeem = planOrder(world, ENV, t(VAULT), t(U), 1_000n * e6);
    expect(kinds(redeem)).toEqual(['vault-redeem']);
    expect(redeem.amountOut).toBe(previewRedeem(vault, 1_000n * e6));
    // composed to composed: vault share -> LP token
    expect(kinds(planOrder(world, ENV, t(VAULT), t(WU), 1_000n * e6))).toEqual(['vault-redeem', 'swap', 'v2-add', 'sweep', 'sweep']);
  });

  it('lending: supply is 1:1, a withdrawal beyond the market’s liquidity is refused as too large', () => {
    const world = fixtureWorld();
    expect(planOrder(world, ENV, t(D), t(AUSDC), 100n * e18).steps.at(-1)!.action.kind).toBe('lending-supply');
    const withdraw = planOrder(world, ENV, t(AUSDC), t(W), 1_000n * e6);
    expect(kinds(withdraw)[0]).toBe('lending-withdraw');
    expect(() => planOrder(world, ENV, t(AUSDC), t(U), 600_000n * e6)).toThrow(expect.objectContaining({ failure: 'too-large' }));
  });

  it('fails with a reason: no pools, or an amount that buys nothing', () => {
    const world = fixtureWorld();
    expect(() => planOrder(world, ENV, t(U), t(LONELY), 1_000n * e6)).toThrow(PlanError);
    expect(() => planOrder(world, ENV, t(U), t(LONELY), 1_000n * e6)).toThrow(expect.objectContaining({ failure: 'no-route' }));
    expect(() => planOrder(world, ENV, t(U), t(W), 1n)).toThrow(expect.objectContaining({ failure: 'too-small' }));
  });

  it('replays the same actions for a smaller input (the signed-order variant)', () => {
    const world = fixtureWorld();
    const plan = planOrder(world, ENV, t(D), t(WU), 5_000n * e18);
    const less = replayPlan(world, plan, 4_990n * e18);
    expect(less).toBeLessThan(plan.amountOut);
    expect(less).toBeGreaterThan((plan.amountOut * 99n) / 100n);
  });
});
