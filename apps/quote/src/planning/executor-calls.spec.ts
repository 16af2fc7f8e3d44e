import { Interface, MaxUint256, toBeHex, zeroPadValue } from 'ethers';
import { ALL_BPS, type ExecutorCall, loadSwapRouter02Artifact, loadUniswapV3Artifact } from '@tokensvc/contracts';
import { v3RouterMissingMessage, v3RouterOf } from '@tokensvc/protocols';
import { type CallEnv, actionCalls } from './executor-calls';

const EXECUTOR = '0x00000000000000000000000000000000000000e1';
const RECIPIENT = '0x00000000000000000000000000000000000000f1';
const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const POOL = '0x00000000000000000000000000000000000000cc';
const ROUTER2 = '0x0000000000000000000000000000000000000002';
const SWAP_ROUTER = '0x0000000000000000000000000000000000000005';
const SWAP_ROUTER02 = '0x0000000000000000000000000000000000000006';
const refuse = (message: string): never => {
  throw new Error(message);
};
const env: CallEnv = {
  network: 'ethereum',
  executor: EXECUTOR,
  recipient: RECIPIENT,
  deadline: 1_900_000_000n,
  platformAddress: (slug: string, role: string) =>
    slug === 'uniswap-v2' && role === 'router' ? ROUTER2 : '0x0000000000000000000000000000000000000003',
  platformAddresses: (slug: string) => (slug === 'uniswap-v3' ? { factory: A, router: SWAP_ROUTER } : undefined),
  refuse,
};

const ABI = new Interface([
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline)',
  'function deposit(uint256 assets, address receiver)',
  'function redeem(uint256 shares, address receiver, address owner)',
  'function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)',
  'function withdraw(address asset, uint256 amount, address to)',
  'function transfer(address to, uint256 amount)',
  'function burn(address to)',
]);

/** The data with each input's amount written where the executor writes it, decoded. */
function asExecuted(call: ExecutorCall, amounts: bigint[]): Record<string, unknown> {
  let hex = call.data.slice(2);
  call.inputs.forEach((input, i) => {
    const at = input.offset * 2;
    hex = hex.slice(0, at) + zeroPadValue(toBeHex(amounts[i]!), 32).slice(2) + hex.slice(at + 64);
  });
  const parsed = ABI.parseTransaction({ data: `0x${hex}` })!;
  return Object.fromEntries(parsed.fragment.inputs.map((p, i) => [p.name, parsed.args[i]]));
}

describe('actionCalls: where the executor writes each amount', () => {
  it('addLiquidity gets both balances as the desired amounts, approved for the call', () => {
    const [call] = actionCalls({ kind: 'v2-add', family: 'uniswap-v2', pair: POOL, platform: 'uniswap-v2', token0: A, token1: B }, env);
    expect(call!.target).toBe(ROUTER2);
    expect(call!.inputs.map((i) => [i.token, i.bps, i.approve])).toEqual([
      [A, ALL_BPS, true],
      [B, ALL_BPS, true],
    ]);
    expect(asExecuted(call!, [111n, 222n])).toMatchObject({
      tokenA: expect.stringMatching(/aa$/i),
      amountADesired: 111n,
      amountBDesired: 222n,
      amountAMin: 0n,
      to: expect.stringMatching(/e1$/i),
      deadline: 1_900_000_000n,
    });
  });

  it('burning LP tokens: all of them to the pair, then burn to the executor', () => {
    const [transfer, burn] = actionCalls({ kind: 'v2-burn', family: 'uniswap-v2', pair: POOL, token0: A, token1: B }, env);
    expect(transfer!.target).toBe(POOL);
    expect(asExecuted(transfer!, [5n])).toMatchObject({ to: expect.stringMatching(/cc$/i), amount: 5n });
    expect(burn!.inputs).toEqual([]);
    expect(asExecuted(burn!, [])).toMatchObject({ to: expect.stringMatching(/e1$/i) });
  });

  it('vault and lending calls spend the whole balance; a withdrawal takes the whole position', () => {
    const [deposit] = actionCalls({ kind: 'vault-deposit', family: 'erc4626', vault: POOL, asset: A }, env);
    expect(asExecuted(deposit!, [7n])).toMatchObject({ assets: 7n, receiver: expect.stringMatching(/e1$/i) });
    expect(deposit!.inputs[0]).toMatchObject({ token: A, approve: true });
    const [redeem] = actionCalls({ kind: 'vault-redeem', family: 'erc4626', vault: POOL, asset: A }, env);
    expect(asExecuted(redeem!, [8n])).toMatchObject({ shares: 8n, owner: expect.stringMatching(/e1$/i) });
    expect(redeem!.inputs[0]).toMatchObject({ token: POOL, approve: false });
    const [supply] = actionCalls({ kind: 'lending-supply', family: 'aave-v3', pool: POOL, asset: A, aToken: B }, env);
    expect(asExecuted(supply!, [9n])).toMatchObject({
      asset: expect.stringMatching(/aa$/i),
      amount: 9n,
      onBehalfOf: expect.stringMatching(/e1$/i),
    });
    const [withdraw] = actionCalls({ kind: 'lending-withdraw', family: 'aave-v3', pool: POOL, asset: A, aToken: B }, env);
    expect(withdraw!.inputs).toEqual([]);
    expect(asExecuted(withdraw!, [])).toMatchObject({ amount: MaxUint256, to: expect.stringMatching(/e1$/i) });
  });

  it('sweeps send leftovers to the recipient; swaps use the platform router and the leg share', () => {
    const [sweep] = actionCalls({ kind: 'sweep', token: A }, env);
    expect(asExecuted(sweep!, [3n])).toMatchObject({ to: expect.stringMatching(/f1$/i), amount: 3n });
    const [swap] = actionCalls(
      { kind: 'swap', pool: POOL, family: 'uniswap-v2', platform: 'uniswap-v2', fee: 3000, tokenIn: A, tokenOut: B, bps: 4_000 },
      env,
    );
    expect(swap!.target).toBe(ROUTER2);
    expect(swap!.inputs[0]).toMatchObject({ token: A, bps: 4_000, approve: true });
  });
});

describe('V3 hops: SwapRouter or SwapRouter02 per platform', () => {
  const SWAP = {
    kind: 'swap',
    pool: POOL,
    family: 'uniswap-v3',
    platform: 'uniswap-v3',
    fee: 500,
    tokenIn: A,
    tokenOut: B,
    bps: 2_500,
  } as const;
  const decoded = (abi: Interface, call: ExecutorCall, amount: bigint): Record<string, unknown> => {
    const at = call.inputs[0]!.offset * 2;
    const hex = call.data.slice(2);
    const data = `0x${hex.slice(0, at)}${zeroPadValue(toBeHex(amount), 32).slice(2)}${hex.slice(at + 64)}`;
    return (abi.decodeFunctionData('exactInputSingle', data)[0] as { toObject(): Record<string, unknown> }).toObject();
  };

  it('the rule: `router` (SwapRouter) wins, else `swapRouter02`, else none', () => {
    expect(v3RouterOf({ factory: A, router: SWAP_ROUTER, swapRouter02: SWAP_ROUTER02 })).toEqual({
      kind: 'swapRouter',
      address: SWAP_ROUTER,
    });
    expect(v3RouterOf({ factory: A, positionManager: B, quoter: POOL, swapRouter02: SWAP_ROUTER02 })).toEqual({
      kind: 'swapRouter02',
      address: SWAP_ROUTER02,
    });
    expect(v3RouterOf({ factory: A, positionManager: B })).toBeUndefined();
    expect(v3RouterOf(undefined)).toBeUndefined();
  });

  it('with the original SwapRouter: exactInputSingle with the order deadline, amountIn patched', () => {
    const [call] = actionCalls(SWAP, env);
    expect(call!.target).toBe(SWAP_ROUTER);
    expect(call!.inputs[0]).toMatchObject({ token: A, bps: 2_500, approve: true, offset: 4 + 5 * 32 });
    expect(decoded(new Interface(loadUniswapV3Artifact('SwapRouter').abi), call!, 77n)).toMatchObject({
      fee: 500n,
      deadline: 1_900_000_000n,
      amountIn: 77n,
      amountOutMinimum: 0n,
      recipient: expect.stringMatching(/e1$/i),
    });
  });

  it('with SwapRouter02: its exactInputSingle (no deadline: the Router checks the order deadline), amountIn patched', () => {
    const [call] = actionCalls(SWAP, { ...env, platformAddresses: () => ({ factory: A, swapRouter02: SWAP_ROUTER02 }) });
    expect(call!.target).toBe(SWAP_ROUTER02);
    expect(call!.inputs[0]).toMatchObject({ token: A, bps: 2_500, approve: true, offset: 4 + 4 * 32 });
    const params = decoded(new Interface(loadSwapRouter02Artifact().abi), call!, 77n);
    expect(params).toMatchObject({
      tokenIn: expect.stringMatching(/aa$/i),
      tokenOut: expect.stringMatching(/bb$/i),
      fee: 500n,
      amountIn: 77n,
      amountOutMinimum: 0n,
      sqrtPriceLimitX96: 0n,
      recipient: expect.stringMatching(/e1$/i),
    });
    expect(params).not.toHaveProperty('deadline');
  });

  it('asks the environment for the V3 router only for V3 hops (its refusal propagates)', () => {
    const refusing = { ...env, platformAddresses: () => ({ factory: A }) };
    expect(() => actionCalls(SWAP, refusing)).toThrow(v3RouterMissingMessage('uniswap-v3', 'ethereum'));
    expect(actionCalls({ ...SWAP, family: 'uniswap-v2', platform: 'uniswap-v2' }, refusing)[0]!.target).toBe(ROUTER2);
  });
});
