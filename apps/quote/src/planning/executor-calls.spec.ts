import { Interface, MaxUint256, toBeHex, zeroPadValue } from 'ethers';
import { ALL_BPS, type ExecutorCall } from '@tokensvc/contracts';
import { actionCalls } from './executor-calls';

const EXECUTOR = '0x00000000000000000000000000000000000000e1';
const RECIPIENT = '0x00000000000000000000000000000000000000f1';
const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const POOL = '0x00000000000000000000000000000000000000cc';
const ROUTER2 = '0x0000000000000000000000000000000000000002';
const env = { executor: EXECUTOR, recipient: RECIPIENT, deadline: 1_900_000_000n, platformAddress: (slug: string, role: string) => (slug === 'uniswap-v2' && role === 'router' ? ROUTER2 : '0x0000000000000000000000000000000000000003') };

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
    const [call] = actionCalls({ kind: 'v2-add', pair: POOL, platform: 'uniswap-v2', token0: A, token1: B }, env);
    expect(call!.target).toBe(ROUTER2);
    expect(call!.inputs.map((i) => [i.token, i.bps, i.approve])).toEqual([[A, ALL_BPS, true], [B, ALL_BPS, true]]);
    expect(asExecuted(call!, [111n, 222n])).toMatchObject({ tokenA: expect.stringMatching(/aa$/i), amountADesired: 111n, amountBDesired: 222n, amountAMin: 0n, to: expect.stringMatching(/e1$/i), deadline: 1_900_000_000n });
  });

  it('burning LP tokens: all of them to the pair, then burn to the executor', () => {
    const [transfer, burn] = actionCalls({ kind: 'v2-burn', pair: POOL, token0: A, token1: B }, env);
    expect(transfer!.target).toBe(POOL);
    expect(asExecuted(transfer!, [5n])).toMatchObject({ to: expect.stringMatching(/cc$/i), amount: 5n });
    expect(burn!.inputs).toEqual([]);
    expect(asExecuted(burn!, [])).toMatchObject({ to: expect.stringMatching(/e1$/i) });
  });

  it('vault and lending calls spend the whole balance; a withdrawal takes the whole position', () => {
    const [deposit] = actionCalls({ kind: 'vault-deposit', vault: POOL, asset: A }, env);
    expect(asExecuted(deposit!, [7n])).toMatchObject({ assets: 7n, receiver: expect.stringMatching(/e1$/i) });
    expect(deposit!.inputs[0]).toMatchObject({ token: A, approve: true });
    const [redeem] = actionCalls({ kind: 'vault-redeem', vault: POOL, asset: A }, env);
    expect(asExecuted(redeem!, [8n])).toMatchObject({ shares: 8n, owner: expect.stringMatching(/e1$/i) });
    expect(redeem!.inputs[0]).toMatchObject({ token: POOL, approve: false });
    const [supply] = actionCalls({ kind: 'lending-supply', pool: POOL, asset: A, aToken: B }, env);
    expect(asExecuted(supply!, [9n])).toMatchObject({ asset: expect.stringMatching(/aa$/i), amount: 9n, onBehalfOf: expect.stringMatching(/e1$/i) });
    const [withdraw] = actionCalls({ kind: 'lending-withdraw', pool: POOL, asset: A, aToken: B }, env);
    expect(withdraw!.inputs).toEqual([]);
    expect(asExecuted(withdraw!, [])).toMatchObject({ amount: MaxUint256, to: expect.stringMatching(/e1$/i) });
  });

  it('sweeps send leftovers to the recipient; swaps use the platform router and the leg share', () => {
    const [sweep] = actionCalls({ kind: 'sweep', token: A }, env);
    expect(asExecuted(sweep!, [3n])).toMatchObject({ to: expect.stringMatching(/f1$/i), amount: 3n });
    const [swap] = actionCalls({ kind: 'swap', pool: POOL, family: 'uniswap-v2', platform: 'uniswap-v2', fee: 3000, tokenIn: A, tokenOut: B, bps: 4_000 }, env);
    expect(swap!.target).toBe(ROUTER2);
    expect(swap!.inputs[0]).toMatchObject({ token: A, bps: 4_000, approve: true });
  });
});
