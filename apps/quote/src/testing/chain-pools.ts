/**
 * Test helper: reads the devnet's pools, LP supplies, vault totals and V3 ticks straight from the
 * chain (what the indexer would have written), for seeding a test database and for publishing
 * pool events after a test changed the chain.
 */
import { AbiCoder, Interface, keccak256 } from 'ethers';
import { type JsonRpcClient, multicall } from '@tokensvc/chain';

/** The parts of a devnet manifest network these helpers read (structurally typed). */
export interface DevnetNetworkLike {
  network: string;
  weth: string;
  tokens: Array<{ symbol: string; name: string; decimals: number; address: string; priceUsd: number }>;
  platforms: Array<{
    slug: string;
    family: string;
    addresses: Record<string, string | string[]>;
    pools: Array<{ address: string; token0: string; token1: string; fee: number; tickSpacing?: number }>;
    vaults: Array<{ address: string; name: string; symbol: string; decimals: number; asset: string }>;
    markets: Array<{ asset: string; symbol: string; aToken: string }>;
  }>;
  contracts: { router: string; executor: string };
}

export interface ChainPool {
  address: string;
  platform: string;
  family: 'uniswap-v2' | 'uniswap-v3' | 'uniswap-v4';
  token0: string;
  token1: string;
  fee: number;
  tickSpacing: number | null;
  reserve0: bigint;
  reserve1: bigint;
  sqrtPriceX96: bigint | null;
  liquidity: bigint | null;
  tick: number | null;
  /** V3 initialized ticks: [index, liquidityNet, liquidityGross] */
  ticks: Array<[number, bigint, bigint]>;
  /** V2 LP supply */
  totalSupply: bigint;
}

const I = new Interface([
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function totalSupply() view returns (uint256)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
  'function tickBitmap(int16) view returns (uint256)',
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)',
  'function totalAssets() view returns (uint256)',
]);
const MIN_TICK = -887272;
const MAX_TICK = 887272;

async function read(
  client: JsonRpcClient,
  calls: Array<{ target: string; fn: string; args?: unknown[] }>,
): Promise<Array<ReturnType<Interface['decodeFunctionResult']>>> {
  const raw = await multicall(
    client,
    calls.map((c) => ({ target: c.target, data: I.encodeFunctionData(c.fn, c.args ?? []) })),
  );
  return raw.map((r, i) => {
    if (r === undefined) throw new Error(`${calls[i]!.fn} on ${calls[i]!.target} failed`);
    return I.decodeFunctionResult(calls[i]!.fn, r);
  });
}

async function v3Ticks(client: JsonRpcClient, pool: string, spacing: number): Promise<Array<[number, bigint, bigint]>> {
  const minWord = Math.floor(Math.floor(MIN_TICK / spacing) / 256);
  const maxWord = Math.floor(Math.floor(MAX_TICK / spacing) / 256);
  const words = Array.from({ length: maxWord - minWord + 1 }, (_, i) => minWord + i);
  const bitmaps = await read(
    client,
    words.map((w) => ({ target: pool, fn: 'tickBitmap', args: [w] })),
  );
  const indexes: number[] = [];
  bitmaps.forEach((b, i) => {
    const bits = b[0] as bigint;
    for (let bit = 0; bit < 256; bit++) if ((bits >> BigInt(bit)) & 1n) indexes.push((words[i]! * 256 + bit) * spacing);
  });
  const data = await read(
    client,
    indexes.map((t) => ({ target: pool, fn: 'ticks', args: [t] })),
  );
  return indexes.map((index, i) => [index, data[i]![1] as bigint, data[i]![0] as bigint]);
}

const PM = new Interface(['function extsload(bytes32[] slots) view returns (bytes32[])']);
const word = (x: bigint): string => `0x${BigInt.asUintN(256, x).toString(16).padStart(64, '0')}`;
const mapSlot = (type: string, key: unknown, slot: bigint): bigint =>
  BigInt(keccak256(AbiCoder.defaultAbiCoder().encode([type, 'uint256'], [key, slot])));

/** Storage words of the PoolManager (v4-core's extsload), in one eth_call. */
async function extsload(client: JsonRpcClient, poolManager: string, slots: readonly bigint[]): Promise<bigint[]> {
  const raw = await client.call<string>('eth_call', [
    { to: poolManager, data: PM.encodeFunctionData('extsload', [slots.map(word)]) },
    'latest',
  ]);
  return (PM.decodeFunctionResult('extsload', raw)[0] as string[]).map((w) => BigInt(w));
}

/** A V4 pool's state from the PoolManager's storage (v4-core's StateLibrary: pools at slot 6; slot0, then ticks at +4, the bitmap at +5, liquidity at +3). */
type V4Fields = Pick<ChainPool, 'sqrtPriceX96' | 'tick' | 'liquidity' | 'ticks'>;

async function v4State(client: JsonRpcClient, poolManager: string, id: string, spacing: number, withTicks: boolean): Promise<V4Fields> {
  const state = mapSlot('bytes32', id, 6n);
  const [slot0, liquidity] = await extsload(client, poolManager, [state, state + 3n]);
  const mask = (bits: bigint): bigint => (1n << bits) - 1n;
  const ticks: Array<[number, bigint, bigint]> = [];
  const out = {
    sqrtPriceX96: slot0! & mask(160n),
    tick: Number(BigInt.asIntN(24, slot0! >> 160n)),
    liquidity: liquidity! & mask(128n),
    ticks,
  };
  if (!withTicks) return out;
  const minWord = Math.floor(Math.floor(MIN_TICK / spacing) / 256);
  const maxWord = Math.floor(Math.floor(MAX_TICK / spacing) / 256);
  const words = Array.from({ length: maxWord - minWord + 1 }, (_, i) => minWord + i);
  const bitmaps = await extsload(
    client,
    poolManager,
    words.map((w) => mapSlot('int16', w, state + 5n)),
  );
  const indexes: number[] = [];
  bitmaps.forEach((bits, i) => {
    for (let bit = 0; bit < 256; bit++) if ((bits >> BigInt(bit)) & 1n) indexes.push((words[i]! * 256 + bit) * spacing);
  });
  const infos = await extsload(
    client,
    poolManager,
    indexes.map((t) => mapSlot('int24', t, state + 4n)),
  );
  out.ticks = indexes.map((index, i) => [index, BigInt.asIntN(128, infos[i]! >> 128n), infos[i]! & ((1n << 128n) - 1n)]);
  return out;
}

/** `ticks: false` skips the V3 tick scan (slow for 1-tick-spacing pools) when ticks did not change. */
export async function readChainPools(client: JsonRpcClient, net: DevnetNetworkLike, opts: { ticks?: boolean } = {}): Promise<ChainPool[]> {
  const out: ChainPool[] = [];
  for (const platform of net.platforms) {
    for (const p of platform.pools) {
      const base = {
        address: p.address.toLowerCase(),
        platform: platform.slug,
        token0: p.token0.toLowerCase(),
        token1: p.token1.toLowerCase(),
        fee: p.fee,
      };
      if (platform.family === 'uniswap-v2') {
        const [reserves, supply] = await read(client, [
          { target: p.address, fn: 'getReserves' },
          { target: p.address, fn: 'totalSupply' },
        ]);
        out.push({
          ...base,
          family: 'uniswap-v2',
          tickSpacing: null,
          reserve0: reserves![0] as bigint,
          reserve1: reserves![1] as bigint,
          sqrtPriceX96: null,
          liquidity: null,
          tick: null,
          ticks: [],
          totalSupply: supply![0] as bigint,
        });
      } else if (platform.family === 'uniswap-v3') {
        const [slot0, liquidity] = await read(client, [
          { target: p.address, fn: 'slot0' },
          { target: p.address, fn: 'liquidity' },
        ]);
        const ticks = opts.ticks === false ? [] : await v3Ticks(client, p.address, p.tickSpacing!);
        out.push({
          ...base,
          family: 'uniswap-v3',
          tickSpacing: p.tickSpacing!,
          reserve0: 0n,
          reserve1: 0n,
          sqrtPriceX96: slot0![0] as bigint,
          liquidity: liquidity![0] as bigint,
          tick: Number(slot0![1]),
          ticks,
          totalSupply: 0n,
        });
      } else if (platform.family === 'uniswap-v4') {
        // Pools are ids inside the PoolManager; reserves are not balances (the indexer counts them from events): 0 here, as for V3.
        const state = await v4State(client, platform.addresses['poolManager'] as string, p.address, p.tickSpacing!, opts.ticks !== false);
        out.push({ ...base, family: 'uniswap-v4', tickSpacing: p.tickSpacing!, reserve0: 0n, reserve1: 0n, totalSupply: 0n, ...state });
      }
    }
  }
  return out;
}

export async function readVaultTotals(
  client: JsonRpcClient,
  vaults: readonly string[],
): Promise<Map<string, { totalAssets: bigint; totalSupply: bigint }>> {
  const res = await read(
    client,
    vaults.flatMap((v) => [
      { target: v, fn: 'totalAssets' },
      { target: v, fn: 'totalSupply' },
    ]),
  );
  return new Map(
    vaults.map((v, i) => [v.toLowerCase(), { totalAssets: res[2 * i]![0] as bigint, totalSupply: res[2 * i + 1]![0] as bigint }]),
  );
}

export async function headBlock(client: JsonRpcClient): Promise<number> {
  return Number(await client.call<string>('eth_blockNumber'));
}
