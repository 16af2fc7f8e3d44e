import { Interface } from 'ethers';
import { multicall, type JsonRpcClient } from '@tokensvc/chain';

/** Reads what a test compares the indexed rows against, straight from the chain (eth_call at the head). */
const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)', 'function totalSupply() view returns (uint256)']);
const V2 = new Interface(['function getReserves() view returns (uint112, uint112, uint32)']);
const V3 = new Interface([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool initialized)',
]);

async function calls<T>(client: JsonRpcClient, iface: Interface, fn: string, items: Array<{ target: string; args: unknown[] }>): Promise<T[]> {
  const results = await multicall(client, items.map((i) => ({ target: i.target, data: iface.encodeFunctionData(fn, i.args) })));
  return results.map((r, i) => {
    if (r === undefined) throw new Error(`${fn} on ${items[i]!.target} failed`);
    return iface.decodeFunctionResult(fn, r) as unknown as T;
  });
}

export async function balancesOf(client: JsonRpcClient, token: string, holders: readonly string[]): Promise<bigint[]> {
  return (await calls<[bigint]>(client, ERC20, 'balanceOf', holders.map((h) => ({ target: token, args: [h] })))).map((r) => r[0]);
}

export async function totalSupply(client: JsonRpcClient, token: string): Promise<bigint> {
  return (await calls<[bigint]>(client, ERC20, 'totalSupply', [{ target: token, args: [] }]))[0]![0];
}

export async function v2Reserves(client: JsonRpcClient, pair: string): Promise<[bigint, bigint]> {
  const [r] = await calls<[bigint, bigint]>(client, V2, 'getReserves', [{ target: pair, args: [] }]);
  return [r![0], r![1]];
}

export async function v3State(client: JsonRpcClient, pool: string): Promise<{ sqrtPriceX96: bigint; tick: number; liquidity: bigint }> {
  const [slot0] = await calls<[bigint, bigint]>(client, V3, 'slot0', [{ target: pool, args: [] }]);
  const [liq] = await calls<[bigint]>(client, V3, 'liquidity', [{ target: pool, args: [] }]);
  return { sqrtPriceX96: slot0![0], tick: Number(slot0![1]), liquidity: liq![0] };
}

export async function v3Ticks(client: JsonRpcClient, pool: string, ticks: readonly number[]): Promise<Array<{ gross: bigint; net: bigint }>> {
  return (await calls<[bigint, bigint]>(client, V3, 'ticks', ticks.map((t) => ({ target: pool, args: [t] })))).map((r) => ({ gross: r[0], net: r[1] }));
}
