/**
 * Bit-exactness of the pure V3 swap against the chain: every Uniswap V3 pool of the shared devnet,
 * both directions, dust to pool-draining sizes, compared with QuoterV2 (eth_call, read-only).
 * Plain fetch JSON-RPC and hand-rolled ABI words: this library may not depend on ethers.
 */
import { readFileSync } from 'node:fs';
import type { V3Pool, V3Tick } from '../pool';
import { quoteV3ExactIn, quoteV3ExactOut } from './v3-swap';
import { MAX_TICK, MIN_TICK } from './tick-math';

interface ManifestPool {
  address: string;
  token0: string;
  token1: string;
  fee: number;
  tickSpacing?: number;
}
interface Manifest {
  networks: Array<{
    network: string;
    platforms: Array<{ family: string; addresses: Record<string, string | string[]>; pools: ManifestPool[] }>;
  }>;
}

const SELECTOR = {
  slot0: '0x3850c7bd',
  liquidity: '0x1a686502',
  tickBitmap: '0x5339c296',
  ticks: '0xf30dba93',
  quoteIn: '0xc6a5026a',
  quoteOut: '0xbd21704a',
};

const word = (x: bigint): string => BigInt.asUintN(256, x).toString(16).padStart(64, '0');
const addressWord = (a: string): string => a.slice(2).toLowerCase().padStart(64, '0');
const readWord = (hex: string, i: number): bigint => BigInt(`0x${hex.slice(2 + i * 64, 2 + (i + 1) * 64)}`);
const signed = (x: bigint, bits: number): bigint => BigInt.asIntN(bits, x);

class Rpc {
  private id = 0;
  constructor(
    private readonly url: string,
    private readonly block: string,
  ) {}

  private async post<T>(body: unknown): Promise<T> {
    const res = await fetch(this.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as T;
  }

  /** eth_call batch; a reverted call yields undefined */
  async calls(requests: Array<{ to: string; data: string }>): Promise<Array<string | undefined>> {
    const out: Array<string | undefined> = [];
    for (let i = 0; i < requests.length; i += 1000) {
      const chunk = requests.slice(i, i + 1000).map((r) => ({
        jsonrpc: '2.0',
        id: ++this.id,
        method: 'eth_call',
        params: [{ to: r.to, data: r.data, gas: '0x3b9aca00' }, this.block],
      }));
      const replies = await this.post<Array<{ id: number; result?: string; error?: { message: string } }>>(chunk);
      const byId = new Map(replies.map((r) => [r.id, r]));
      for (const req of chunk) out.push(byId.get(req.id)?.result);
    }
    return out;
  }

  async call(to: string, data: string): Promise<string> {
    const [result] = await this.calls([{ to, data }]);
    if (result === undefined) throw new Error(`eth_call to ${to} reverted`);
    return result;
  }
}

async function readPool(rpc: Rpc, p: ManifestPool): Promise<V3Pool> {
  const tickSpacing = p.tickSpacing!;
  const slot0 = await rpc.call(p.address, SELECTOR.slot0);
  const liquidity = readWord(await rpc.call(p.address, SELECTOR.liquidity), 0);
  // Every bitmap word of the tick range, then every initialized tick's liquidityNet.
  const minWord = Math.floor(Math.floor(MIN_TICK / tickSpacing) / 256);
  const maxWord = Math.floor(Math.floor(MAX_TICK / tickSpacing) / 256);
  const wordPositions = Array.from({ length: maxWord - minWord + 1 }, (_, i) => minWord + i);
  const words = await rpc.calls(wordPositions.map((w) => ({ to: p.address, data: SELECTOR.tickBitmap + word(BigInt(w)) })));
  const indexes: number[] = [];
  words.forEach((hex, i) => {
    const bits = readWord(hex!, 0);
    for (let bit = 0; bit < 256; bit++) if ((bits >> BigInt(bit)) & 1n) indexes.push((wordPositions[i]! * 256 + bit) * tickSpacing);
  });
  const tickData = await rpc.calls(indexes.map((t) => ({ to: p.address, data: SELECTOR.ticks + word(BigInt(t)) })));
  const ticks: V3Tick[] = indexes.map((index, i) => ({ index, liquidityNet: signed(readWord(tickData[i]!, 1), 128) }));
  return {
    family: 'uniswap-v3',
    shape: 'concentrated',
    address: p.address.toLowerCase(),
    token0: p.token0.toLowerCase(),
    token1: p.token1.toLowerCase(),
    fee: p.fee,
    tickSpacing,
    sqrtPriceX96: readWord(slot0, 0),
    tick: Number(signed(readWord(slot0, 1), 24)),
    liquidity,
    ticks,
  };
}

function quoterData(selector: string, tokenIn: string, tokenOut: string, amount: bigint, fee: number): string {
  return selector + addressWord(tokenIn) + addressWord(tokenOut) + word(amount) + word(BigInt(fee)) + word(0n);
}

/** Trade sizes relative to the input token's virtual reserve in the current range. */
function sizes(pool: V3Pool, zeroForOne: boolean): bigint[] {
  const price = Number(pool.sqrtPriceX96) / 2 ** 96;
  const reserve = Number(pool.liquidity) * (zeroForOne ? 1 / price : price);
  const fractions = [1e-9, 1e-6, 1e-4, 1e-3, 0.01, 0.05, 0.2, 0.5, 1, 2, 5, 20, 1e3];
  // 2^160 runs through every range to the price limit: a partial fill.
  return [1n, 1000n, ...fractions.map((f) => BigInt(Math.max(1, Math.floor(reserve * f)))), 2n ** 160n];
}

describe('V3 swap maths vs QuoterV2 on the devnet', () => {
  const rpcUrls = JSON.parse(process.env['TEST_DEVNET_RPC_URLS'] ?? '{}') as Record<string, string>;
  const manifest = JSON.parse(readFileSync(process.env['TEST_DEVNET_MANIFEST'] ?? '', 'utf8')) as Manifest;

  for (const net of manifest.networks) {
    const v3 = net.platforms.find((p) => p.family === 'uniswap-v3');
    if (!v3) continue;
    it(`${net.network}: every V3 pool, both directions, exact in and exact out, equal to the unit`, async () => {
      const url = rpcUrls[net.network]!;
      const head = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] }),
      });
      const rpc = new Rpc(url, ((await head.json()) as { result: string }).result);
      const quoter = v3.addresses['quoter'] as string;
      let compared = 0;
      let crossedTicks = 0;
      let partialFills = 0;
      for (const manifestPool of v3.pools) {
        const pool = await readPool(rpc, manifestPool);
        expect(pool.ticks.length).toBeGreaterThan(1);
        for (const zeroForOne of [true, false]) {
          const [tokenIn, tokenOut] = zeroForOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
          const amounts = sizes(pool, zeroForOne);
          const onChainIn = await rpc.calls(
            amounts.map((a) => ({ to: quoter, data: quoterData(SELECTOR.quoteIn, tokenIn, tokenOut, a, pool.fee) })),
          );
          amounts.forEach((amount, i) => {
            const pure = quoteV3ExactIn(pool, tokenIn, amount);
            const chain = onChainIn[i];
            expect({ pool: pool.address, zeroForOne, amount, out: pure.amountOut, sqrtPrice: pure.after.sqrtPriceX96 }).toEqual({
              pool: pool.address,
              zeroForOne,
              amount,
              out: readWord(chain!, 0),
              sqrtPrice: readWord(chain!, 1),
            });
            compared++;
            crossedTicks += pure.ticksCrossed;
            if (pure.amountIn < amount) partialFills++;
          });
          // Exact output: the amounts the exact-input quotes produced, which the quoter must fill in full.
          const wanted = amounts.map((a) => quoteV3ExactIn(pool, tokenIn, a).amountOut).filter((o) => o > 0n);
          const onChainOut = await rpc.calls(
            wanted.map((a) => ({ to: quoter, data: quoterData(SELECTOR.quoteOut, tokenIn, tokenOut, a, pool.fee) })),
          );
          wanted.forEach((amountOut, i) => {
            const pure = quoteV3ExactOut(pool, tokenIn, amountOut);
            const chain = onChainOut[i];
            expect({ pool: pool.address, amountOut, amountIn: pure?.amountIn }).toEqual({
              pool: pool.address,
              amountOut,
              amountIn: chain === undefined ? undefined : readWord(chain, 0),
            });
            compared++;
          });
        }
      }
      // The sizes must actually exercise tick crossings and the end of liquidity.
      expect(crossedTicks).toBeGreaterThan(10);
      expect(partialFills).toBeGreaterThan(0);
      process.stderr.write(
        `${net.network}: ${compared} quotes equal to QuoterV2 across ${v3.pools.length} pools (${crossedTicks} initialized ticks crossed, ${partialFills} partial fills)\n`,
      );
    });
  }
});
