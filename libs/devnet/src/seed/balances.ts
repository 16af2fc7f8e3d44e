/**
 * Re-reads real balances into the portfolio model. The model's swap credits are deliberately
 * low, so without this, busy accounts (the arbitrage bots above all) would "run dry" on paper.
 * Called at a block boundary, when nothing is queued, so the chain's numbers are exact.
 */
import { parseEther } from 'ethers';
import { ABI } from '../chain/abis';
import { encodeCall } from '../chain/encode';
import { NATIVE } from './portfolio';
import type { World } from './world';

/** Native ETH kept back for gas; only the rest counts as spendable. */
const GAS_RESERVE = parseEther('50');

export async function syncBalances(world: World, accounts: readonly string[]): Promise<void> {
  const erc20 = ABI.erc20();
  const calls = accounts.flatMap((account) => [
    { method: 'eth_getBalance', params: [account, 'latest'] },
    ...world.tokens.map((t) => ({
      method: 'eth_call',
      params: [{ to: t.address, data: encodeCall(erc20, 'balanceOf', [account]) }, 'latest'],
    })),
  ]);
  const results = await world.ctx.rpc.batch<string>(calls);
  let i = 0;
  for (const account of accounts) {
    world.portfolio.set(account, NATIVE, BigInt(results[i++]!) - GAS_RESERVE);
    for (const t of world.tokens) world.portfolio.set(account, t.address, BigInt(results[i++]!));
  }
}
