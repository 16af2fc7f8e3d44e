import { Interface, MaxUint256 } from 'ethers';
import type { JsonRpcClient } from '@tokensvc/chain';

/** Transactions a test sends on its private anvil (from an unlocked dev account; each mines a block). */
const ERC20 = new Interface(['function transfer(address,uint256)', 'function approve(address,uint256)']);
const V2_ROUTER = new Interface(['function swapExactTokensForTokens(uint256,uint256,address[],address,uint256)']);
const V2_FACTORY = new Interface(['function createPair(address,address)']);
const VAULT = new Interface(['function deposit(uint256,address)']);
const V3_ROUTER = new Interface([
  'function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96))',
]);
const V3_POSITIONS = new Interface([
  'function mint((address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint256 amount0Desired, uint256 amount1Desired, uint256 amount0Min, uint256 amount1Min, address recipient, uint256 deadline))',
]);
const AAVE_POOL = new Interface(['function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)']);

export interface TxRequest {
  from: string;
  to: string;
  data: string;
  gas: string;
}

const tx = (from: string, to: string, data: string, gas = 500_000): TxRequest => ({ from, to, data, gas: `0x${gas.toString(16)}` });

export const txs = {
  transfer: (from: string, token: string, to: string, amount: bigint): TxRequest =>
    tx(from, token, ERC20.encodeFunctionData('transfer', [to, amount])),
  approve: (from: string, token: string, spender: string): TxRequest =>
    tx(from, token, ERC20.encodeFunctionData('approve', [spender, MaxUint256])),
  swapV2: (from: string, router: string, amountIn: bigint, path: string[]): TxRequest =>
    tx(from, router, V2_ROUTER.encodeFunctionData('swapExactTokensForTokens', [amountIn, 0, path, from, 4_000_000_000n])),
  createPair: (from: string, factory: string, a: string, b: string): TxRequest =>
    tx(from, factory, V2_FACTORY.encodeFunctionData('createPair', [a, b]), 6_000_000),
  swapV3: (from: string, router: string, tokenIn: string, tokenOut: string, fee: number, amountIn: bigint): TxRequest =>
    tx(
      from,
      router,
      V3_ROUTER.encodeFunctionData('exactInputSingle', [
        { tokenIn, tokenOut, fee, recipient: from, deadline: 4_000_000_000n, amountIn, amountOutMinimum: 0, sqrtPriceLimitX96: 0 },
      ]),
      1_000_000,
    ),
  mintV3: (
    from: string,
    positions: string,
    p: { token0: string; token1: string; fee: number; tickLower: number; tickUpper: number; amount0: bigint; amount1: bigint },
  ): TxRequest =>
    tx(
      from,
      positions,
      V3_POSITIONS.encodeFunctionData('mint', [
        {
          token0: p.token0,
          token1: p.token1,
          fee: p.fee,
          tickLower: p.tickLower,
          tickUpper: p.tickUpper,
          amount0Desired: p.amount0,
          amount1Desired: p.amount1,
          amount0Min: 0,
          amount1Min: 0,
          recipient: from,
          deadline: 4_000_000_000n,
        },
      ]),
      1_500_000,
    ),
  aaveSupply: (from: string, pool: string, asset: string, amount: bigint): TxRequest =>
    tx(from, pool, AAVE_POOL.encodeFunctionData('supply', [asset, amount, from, 0]), 1_000_000),
  vaultDeposit: (from: string, vault: string, assets: bigint): TxRequest =>
    tx(from, vault, VAULT.encodeFunctionData('deposit', [assets, from])),
};

/** Sends and waits for the receipt; throws when it reverted. */
export async function send(client: JsonRpcClient, request: TxRequest): Promise<void> {
  const hash = await client.call<string>('eth_sendTransaction', [request]);
  for (let i = 0; i < 100; i++) {
    const receipt = await client.call<{ status: string } | null>('eth_getTransactionReceipt', [hash]);
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error(`transaction ${hash} to ${request.to} reverted`);
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`transaction ${hash} to ${request.to} was not mined`);
}

/** Replaces the last `depth` blocks with new ones holding `replacements` (tx, block offset). */
export async function reorg(client: JsonRpcClient, depth: number, replacements: Array<[TxRequest, number]>): Promise<void> {
  await client.call('anvil_reorg', [depth, replacements]);
}
