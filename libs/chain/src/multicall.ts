import { AbiCoder, Interface, toUtf8String } from 'ethers';
import { MULTICALL3_ADDRESS } from '@tokensvc/domain';
import type { JsonRpcClient } from './rpc/json-rpc-client';

export interface ContractCall {
  target: string;
  data: string;
}

const MULTICALL = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
]);
const coder = AbiCoder.defaultAbiCoder();

/**
 * Runs many read calls through Multicall3 (canonical address) in as few eth_calls as possible;
 * a failing call gives `undefined` instead of failing the rest.
 */
export async function multicall(
  client: JsonRpcClient,
  calls: readonly ContractCall[],
  blockTag = 'latest',
  chunk = 500,
): Promise<Array<string | undefined>> {
  const out: Array<string | undefined> = [];
  for (let i = 0; i < calls.length; i += chunk) {
    const part = calls.slice(i, i + chunk);
    const data = MULTICALL.encodeFunctionData('aggregate3', [part.map((c) => [c.target, true, c.data])]);
    const raw = await client.call<string>('eth_call', [{ to: MULTICALL3_ADDRESS, data }, blockTag]);
    const [results] = MULTICALL.decodeFunctionResult('aggregate3', raw) as unknown as [Array<[boolean, string]>];
    for (const [success, ret] of results) out.push(success && ret !== '0x' ? ret : undefined);
  }
  return out;
}

export const SELECTORS = {
  name: '0x06fdde03',
  symbol: '0x95d89b41',
  decimals: '0x313ce567',
  totalSupply: '0x18160ddd',
  /** ERC-4626 asset() */
  asset: '0x38d52e0f',
} as const;

/** ABI string, or the bytes32 some old tokens (MKR) return; undefined when neither. */
export function decodeStringResult(ret: string | undefined): string | undefined {
  if (ret === undefined) return undefined;
  try {
    return coder.decode(['string'], ret)[0] as string;
  } catch {
    if (ret.length !== 66) return undefined;
    try {
      return toUtf8String(ret).replace(/(?<!\0)\0+$/, '');
    } catch {
      return undefined;
    }
  }
}

export function decodeUintResult(ret: string | undefined): bigint | undefined {
  if (ret === undefined || ret.length < 66) return undefined;
  return BigInt(ret.slice(0, 66));
}

export function decodeAddressResult(ret: string | undefined): string | undefined {
  if (ret === undefined || ret.length < 66) return undefined;
  return `0x${ret.slice(26, 66)}`.toLowerCase();
}

export interface Erc20Metadata {
  name: string;
  symbol: string;
  decimals: number;
  totalSupply: bigint;
}

/** name/symbol/decimals/totalSupply of many tokens in one multicall; undefined for non-ERC-20s. */
export async function readErc20Metadata(
  client: JsonRpcClient,
  addresses: readonly string[],
  blockTag = 'latest',
): Promise<Map<string, Erc20Metadata | undefined>> {
  const fields = [SELECTORS.name, SELECTORS.symbol, SELECTORS.decimals, SELECTORS.totalSupply];
  const results = await multicall(
    client,
    addresses.flatMap((target) => fields.map((data) => ({ target, data }))),
    blockTag,
  );
  const out = new Map<string, Erc20Metadata | undefined>();
  addresses.forEach((a, i) => {
    const [name, symbol, decimals, supply] = fields.map((_, j) => results[i * fields.length + j]);
    const dec = decodeUintResult(decimals);
    const total = decodeUintResult(supply);
    out.set(
      a,
      dec === undefined || total === undefined || dec > 255n
        ? undefined
        : { name: decodeStringResult(name) ?? '', symbol: decodeStringResult(symbol) ?? '', decimals: Number(dec), totalSupply: total },
    );
  });
  return out;
}
