import { ExecutorSim } from './executor-sim';
import { D, ENV, NATIVE, TOKENS, U, VAULT, W, WU, X, amount, fixtureWorld } from './plan.fixture';
import { planMultiOrder, planOrder } from './plan-order';

const { e18, e6 } = amount;
const t = (a: string) => TOKENS[a]!;

/** Runs the plan's actions from the inputs it names: what the executor would hold at the end. */
function replay(plan: ReturnType<typeof planMultiOrder>): bigint {
  const sim = new ExecutorSim(fixtureWorld());
  for (const i of plan.inputs) sim.credit(i.tokenIn, i.amountIn);
  for (const s of plan.steps) sim.apply(s.action);
  return sim.balance(plan.tokenOut);
}

describe('planMultiOrder', () => {
  it('one input plans exactly as planOrder', () => {
    const single = planOrder(fixtureWorld(), ENV, t(D), t(X), 20_000n * e18);
    const multi = planMultiOrder(fixtureWorld(), ENV, [{ token: t(D), amount: 20_000n * e18 }], t(X));
    expect(multi.amountOut).toBe(single.amountOut);
    expect(multi.steps.map((s) => s.action)).toEqual(single.steps.map((s) => s.action));
    expect(multi.inputs).toEqual([{ tokenIn: D, amountIn: 20_000n * e18 }]);
  });

  it('routes several dust inputs (native among them) into one token, replayable from the inputs', () => {
    const inputs = [
      { token: t(D), amount: 5n * e18 },
      { token: t(U), amount: 7n * e6 },
      { token: t(NATIVE), amount: e18 / 1000n },
    ];
    const plan = planMultiOrder(fixtureWorld(), ENV, inputs, t(X));
    expect(plan.inputs.map((i) => i.tokenIn)).toEqual([D, U, W]);
    expect(plan.wrapNative).toBe(W);
    expect(plan.unwrapNative).toBeUndefined();
    expect(plan.amountOut).toBeGreaterThan(0n);
    expect(replay(plan)).toBe(plan.amountOut);
    // more input, more output: the three together beat any one of them alone
    for (const i of inputs) expect(plan.amountOut).toBeGreaterThan(planOrder(fixtureWorld(), ENV, i.token, t(X), i.amount).amountOut);
    expect(plan.residualTokens).toEqual([]);
  });

  it('zaps several inputs into a V2 LP token and into a vault share', () => {
    const inputs = [
      { token: t(D), amount: 50n * e18 },
      { token: t(X), amount: 3n * e18 },
      { token: t(U), amount: 40n * e6 },
      { token: t(W), amount: e18 / 100n },
    ];
    const lp = planMultiOrder(fixtureWorld(), ENV, inputs, t(WU));
    expect(lp.steps.filter((s) => s.action.kind === 'v2-add')).toHaveLength(1);
    expect(replay(lp)).toBe(lp.amountOut);
    const vault = planMultiOrder(fixtureWorld(), ENV, inputs, t(VAULT));
    expect(vault.steps.filter((s) => s.action.kind === 'vault-deposit')).toHaveLength(1);
    expect(replay(vault)).toBe(vault.amountOut);
  });
});
