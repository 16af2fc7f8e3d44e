/** The events every contender indexes: topics and the contracts that emit them on the bench chain. */
import { id } from 'ethers';
import type { BenchWorld } from './world';

export const TOPICS = {
  transfer: id('Transfer(address,address,uint256)'),
  swap: id('Swap(address,uint256,uint256,uint256,uint256,address)'),
  sync: id('Sync(uint112,uint112)'),
  mint: id('Mint(address,uint256,uint256)'),
  burn: id('Burn(address,uint256,uint256,address)'),
  deposit: id('Deposit(address,address,uint256,uint256)'),
  withdraw: id('Withdraw(address,address,address,uint256,uint256)'),
} as const;

export type EventKind = keyof typeof TOPICS;

/** Tokens, pairs (their LP Transfers and pool events) and vaults (share Transfers and flows). */
export function emitters(world: BenchWorld): string[] {
  return [...world.tokens.map((t) => t.address), ...world.pairs.map((p) => p.address), ...world.vaults.map((v) => v.address)];
}
