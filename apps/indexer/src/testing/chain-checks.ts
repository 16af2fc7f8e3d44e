import { AbiCoder, Interface, keccak256 } from 'ethers';
import { multicall, type JsonRpcClient } from '@tokensvc/chain';

/** Reads what a test compares the indexed rows against, straight from the chain (eth_call at the head). */
const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)', 'function totalSupply() view returns (uint256)']);
const V2 = new Interface(['function getReserves() view returns (uint112, uint112, uint32)']);
const V3 = new Interface([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool initialized)',
]);

async function calls<T>(
  client: JsonRpcClient,
  iface: Interface,
  fn: string,
  items: Array<{ target: string; args: unknown[] }>,
): Promise<T[]> {
  const results = await multicall(
    client,
    items.map((i) => ({ target: i.target, data: iface.encodeFunctionData(fn, i.args) })),
  );
  return results.map((r, i) => {
    if (r === undefined) throw new Error(`${fn} on ${items[i]!.target} failed`);
    return iface.decodeFunctionResult(fn, r) as unknown as T;
  });
}

export async function balancesOf(client: JsonRpcClient, token: string, holders: readonly string[]): Promise<bigint[]> {
  return (
    await calls<[bigint]>(
      client,
      ERC20,
      'balanceOf',
      holders.map((h) => ({ target: token, args: [h] })),
    )
  ).map((r) => r[0]);
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

export async function v3Ticks(
  client: JsonRpcClient,
  pool: string,
  ticks: readonly number[],
): Promise<Array<{ gross: bigint; net: bigint }>> {
  return (
    await calls<[bigint, bigint]>(
      client,
      V3,
      'ticks',
      ticks.map((t) => ({ target: pool, args: [t] })),
    )
  ).map((r) => ({ gross: r[0], net: r[1] }));
}

const PM = new Interface(['function extsload(bytes32[] slots) view returns (bytes32[])']);
const mapSlot = (type: string, key: unknown, slot: bigint): bigint =>
  BigInt(keccak256(AbiCoder.defaultAbiCoder().encode([type, 'uint256'], [key, slot])));

/** Storage words of a Uniswap V4 PoolManager (its extsload), in one call. */
async function extsload(client: JsonRpcClient, poolManager: string, slots: readonly bigint[]): Promise<bigint[]> {
  const [words] = await calls<[string[]]>(client, PM, 'extsload', [
    { target: poolManager, args: [slots.map((s) => `0x${s.toString(16).padStart(64, '0')}`)] },
  ]);
  return words![0].map((w) => BigInt(w));
}

/** A V4 pool's state slot (v4-core's StateLibrary: the pools mapping is at slot 6): slot0, then liquidity at +3, ticks at +4. */
const v4StateSlot = (id: string): bigint => mapSlot('bytes32', id, 6n);

/** A V4 pool's price, tick and active liquidity from the PoolManager's storage. */
export async function v4State(
  client: JsonRpcClient,
  poolManager: string,
  id: string,
): Promise<{ sqrtPriceX96: bigint; tick: number; liquidity: bigint }> {
  const state = v4StateSlot(id);
  const [slot0, liquidity] = await extsload(client, poolManager, [state, state + 3n]);
  return {
    sqrtPriceX96: slot0! & ((1n << 160n) - 1n),
    tick: Number(BigInt.asIntN(24, slot0! >> 160n)),
    liquidity: liquidity! & ((1n << 128n) - 1n),
  };
}

type TickLiquidity = { gross: bigint; net: bigint };

/** A V4 pool's liquidityGross and liquidityNet at these ticks (Pool.TickInfo's first word). */
export async function v4Ticks(client: JsonRpcClient, poolManager: string, id: string, ticks: readonly number[]): Promise<TickLiquidity[]> {
  const words = await extsload(
    client,
    poolManager,
    ticks.map((t) => mapSlot('int24', t, v4StateSlot(id) + 4n)),
  );
  return words.map((w) => ({ gross: w & ((1n << 128n) - 1n), net: BigInt.asIntN(128, w >> 128n) }));
}
