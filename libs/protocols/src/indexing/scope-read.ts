/**
 * The start-block state read (INDEXER_POOLS=listed): what each family reads by Multicall3 at the
 * block before a network's start block, in the scope of its listed tokens. The indexer gives the
 * multicall; each module says what to call and how to read the answers.
 */
import { Interface } from 'ethers';
import type { PoolInfo, PoolState, TickDelta, TokenSeed } from './registry-types';

export interface BootstrapPool {
  info: PoolInfo;
  state: PoolState;
}

/** What a network holds at the block before its start block, in the scope of its listed tokens. */
export interface ScopeSnapshot {
  pools: BootstrapPool[];
  ticks: TickDelta[];
  /** LP tokens of V2 pairs, aTokens of listed reserves */
  tokens: TokenSeed[];
}

export interface ContractRead {
  target: string;
  data: string;
}

export interface ScopeReadContext {
  block: number;
  /** the listed tokens (lowercase) */
  listed: readonly string[];
  /** unordered pairs of the listed tokens, each (token0, token1) sorted as the factories sort them */
  pairs: ReadonlyArray<[string, string]>;
  /** one Multicall3 batch at `block`: each call's return data, undefined when it reverted */
  multicall(calls: readonly ContractRead[]): Promise<Array<string | undefined>>;
}

export const ZERO = '0x0000000000000000000000000000000000000000';
export const lower = (a: string): string => a.toLowerCase();

/** Encoder and lenient decoder (undefined on a revert or a malformed answer) over one ABI. */
export function abiReader(abi: readonly string[]): {
  call(target: string, fn: string, args?: unknown[]): ContractRead;
  decode(fn: string, ret: string | undefined): ReturnType<Interface['decodeFunctionResult']> | undefined;
} {
  const iface = new Interface(abi);
  return {
    call: (target, fn, args = []) => ({ target, data: iface.encodeFunctionData(fn, args) }),
    decode: (fn, ret) => {
      if (ret === undefined) return undefined;
      try {
        return iface.decodeFunctionResult(fn, ret);
      } catch {
        return undefined;
      }
    },
  };
}

/** A pool's state at `block` before its state fields are read. */
export function stateAt(block: number, reserve0: bigint, reserve1: bigint, concentrated: boolean): PoolState {
  return { reserve0, reserve1, sqrtPriceX96: null, liquidity: concentrated ? 0n : null, tick: null, blockNumber: block, logIndex: 0 };
}
