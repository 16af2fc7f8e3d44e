/**
 * Both Uniswap V3 USDC/WETH pools of 2024-01-05 replayed together (the 0.05 % pool 0x88e6…5640:
 * 6,234 logs; the 0.3 % pool 0x8ad5…e6d8: 304 logs) into the platform in its production
 * configuration, and WETH's served price compared, after every block with a swap in either pool,
 * with the rule the service combines pools by, and with Chainlink ETH/USD (docs/real-data.md,
 * issue 32).
 *
 * The rule (apps/indexer/src/derive/README.md, `math/price-graph.ts`): USDC is $1; each pool quotes
 * WETH at its price, weighted by 2 x its USDC depth (x $1); the served price is the weighted mean
 * of the quotes within 20 % of their weighted median (pools under $10k depth ignored). A V3 pool's
 * depth is its token balances as the indexer knows them, or, when they are 0, its in-range virtual
 * reserves (L / sqrtP for token0). The replay has the pools' logs only (no USDC or WETH Transfer
 * logs), so the balances the indexer would track are unknown: the pools' devnet balances are set
 * to 0 before the bootstrap, so each pool's depth is its recorded liquidity's (real) virtual
 * reserves, and the deeper pool (the 0.05 %, about twice the 0.3 %'s liquidity) dominates.
 *
 * Chain and replay as in real-replay.e2e-spec.ts: both pools' storage set to their state before
 * their first event (each a swap of an exact WETH amount in), the factory's other USDC/WETH tiers
 * out of getPool, `startReplayRpc` serving both pools' logs.
 */
import { join } from 'node:path';
import { Contract } from 'ethers';
import { loadRegistry } from '@tokensvc/chain';
import { readDemeterRawCsv, startReplayRpc } from '@tokensvc/testing';
import {
  againstChainlinkEth,
  gatewayUp,
  keepV3FeeTiers,
  median,
  pct,
  readTickCsv,
  realDataDir,
  rel,
  setErc20Balance,
  setStateBeforeExactToken1In,
  startProfile,
  startRealPlatform,
  statesAfterBlocks,
  stopRun,
  tempDir,
  untilIndexed,
  wethPrice,
  writeRegistryCut,
  type PoolStateAfter,
  type RealRun,
} from './real-data';

jest.setTimeout(240_000);

const POOLS = [
  { address: '0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640', fee: 500, tickFile: 'tick.csv', logs: 6234 },
  { address: '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8', fee: 3000, tickFile: 'pool.tick.csv', logs: 304 },
] as const;
const FIRST_BLOCK = 18_937_382;
const LAST_BLOCK = 18_944_480;
const DAY = '2024-01-05';

/** A pool's USDC side in its price graph quote: in-range virtual reserve0 (L / sqrtP) in USDC units. */
const usdcDepth = (s: PoolStateAfter): number => Number(s.liquidity) / (Number(s.sqrtPriceX96) / 2 ** 96) / 1e6;

describe('both USDC/WETH pools (0.05 % and 0.3 %) of 2024-01-05 replayed together', () => {
  const dir = realDataDir();
  const data = POOLS.map((p) => {
    const raw = readDemeterRawCsv(join(dir, 'demeter-fetch', `ethereum-${p.address}-${DAY}.raw.csv`), p.address);
    const events = readTickCsv(join(dir, 'reference', 'demeter-fetch', `ethereum-${p.address}-${DAY}.${p.tickFile}`));
    return { ...p, raw, events, after: statesAfterBlocks(events) };
  });
  const registry = loadRegistry('shipped');
  const eth = registry.networks.ethereum!;
  const USDC = eth.tokens.find((t) => t.symbol === 'USDC')!.address.toLowerCase();
  const WETH = eth.wrappedNative!.address.toLowerCase();
  const wethKey = `ethereum:${WETH}`;
  const run: RealRun = {};
  /** each pool's state before its first event (what the bootstrap reads) */
  const starts: PoolStateAfter[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    for (const p of data) expect(p.raw.logs).toHaveLength(p.logs);
    const { devnet, provider, rpcUrl } = await startProfile('ethereum', registry);
    Object.assign(run, { devnet, provider });
    const factoryAddress = (eth.platforms.find((p) => p.slug === 'uniswap-v3')!.addresses['factory'] as { address: string }).address;
    const factory = new Contract(factoryAddress, ['function getPool(address, address, uint24) view returns (address)'], provider);
    for (const p of data) expect((await factory.getFunction('getPool')(USDC, WETH, p.fee)).toLowerCase()).toBe(p.address);
    await keepV3FeeTiers(
      provider,
      factoryAddress,
      USDC,
      WETH,
      { fee: 500, pool: POOLS[0].address },
      POOLS.map((p) => p.fee),
    );
    for (const p of data) {
      const before = await setStateBeforeExactToken1In(provider, p.address, p.events[0]!, p.fee);
      starts.push({ sqrtPriceX96: before.sqrtPriceX96, tick: before.tick, liquidity: p.events[0]!.liquidity });
      // no balances: the depth is the recorded liquidity's virtual reserves (see the header)
      await setErc20Balance(provider, USDC, p.address, 0n);
      await setErc20Balance(provider, WETH, p.address, 0n);
      process.stdout.write(
        `real two pools: ${p.fee / 10_000} % pool ${p.address} before its first event (block ${p.events[0]!.block}): sqrtPriceX96 ${before.sqrtPriceX96} tick ${before.tick} liquidity ${p.events[0]!.liquidity}\n`,
      );
    }
    const logs = data.flatMap((p) => p.raw.logs);
    const blockTimes = new Map(data.flatMap((p) => [...p.raw.blockTimes]));
    const replay = (run.replay = await startReplayRpc({
      upstream: rpcUrl,
      logs,
      blockTimes,
      firstBlock: FIRST_BLOCK,
      lastBlock: LAST_BLOCK,
    }));
    const tmp = (run.tmp = tempDir('real-two-pools-'));
    const registryFile = writeRegistryCut(tmp.dir, registry, 'ethereum', { tokens: ['USDC', 'WETH'], platforms: ['uniswap-v3'] });
    const platform = (run.platform = await startRealPlatform({
      name: 'real_two_pools',
      network: 'ethereum',
      rpcUrl: replay.url,
      router: devnet.manifest.networks[0]!.contracts.router,
      startBlock: FIRST_BLOCK,
      registry: registryFile,
      apps: ['indexer', 'token-data', 'gateway'],
    }));
    await untilIndexed(platform, 'ethereum', LAST_BLOCK, 150_000);
    await gatewayUp(platform);
    process.stdout.write(
      `real two pools: the day indexed, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s; replay served ${replay.stats.logsServed} logs\n`,
    );
  }, 300_000);

  afterAll(() => stopRun(run));

  it('prices WETH after every block with a swap at the depth-weighted mean of the two pools, within them, nearer the deeper', async () => {
    // each pool's state after every block (its last state at or before it)
    const swapBlocks = [...new Set(data.flatMap((p) => p.events.filter((e) => e.type === 'SWAP').map((e) => e.block)))].sort(
      (a, b) => a - b,
    );
    const cursor = data.map((_, k) => ({ i: 0, state: starts[k]! }));
    const blocks = data.map((p) => [...p.after.keys()].sort((a, b) => a - b));
    const points = new Map<number, number>(
      (
        await run.platform!.db.query(
          `SELECT block_number::int AS b, price FROM price_points WHERE token_key = $1 AND block_number BETWEEN $2 AND $3`,
          [wethKey, FIRST_BLOCK, LAST_BLOCK],
        )
      ).rows.map((r: { b: number; price: number }) => [r.b, r.price]),
    );
    const devs: number[] = [];
    const shares: number[] = [];
    let between = 0;
    let nearerDeeper = 0;
    let compared = 0;
    const missing: number[] = [];
    for (const block of swapBlocks) {
      data.forEach((p, k) => {
        const c = cursor[k]!;
        // before its first event a pool stands at its start state
        while (c.i < blocks[k]!.length && blocks[k]![c.i]! <= block) c.state = p.after.get(blocks[k]![c.i++]!)!;
      });
      const quotes = cursor.map((c) => ({ price: wethPrice(c.state.sqrtPriceX96), depth: usdcDepth(c.state) }));
      const want = quotes.reduce((s, q) => s + q.price * q.depth, 0) / quotes.reduce((s, q) => s + q.depth, 0);
      const served = points.get(block);
      if (served === undefined) {
        missing.push(block);
        continue;
      }
      compared++;
      devs.push(rel(served, want));
      shares.push(quotes[0]!.depth / (quotes[0]!.depth + quotes[1]!.depth));
      const [lo, hi] = [Math.min(quotes[0]!.price, quotes[1]!.price), Math.max(quotes[0]!.price, quotes[1]!.price)];
      if (served >= lo * (1 - 1e-12) && served <= hi * (1 + 1e-12)) between++;
      const deeper = quotes[0]!.depth >= quotes[1]!.depth ? 0 : 1;
      if (Math.abs(served - quotes[deeper]!.price) <= Math.abs(served - quotes[1 - deeper]!.price)) nearerDeeper++;
    }
    const equal = devs.filter((d) => d <= 1e-9).length;
    process.stdout.write(
      `real two pools: ${compared} blocks with swaps compared (${missing.length} without a price point): served WETH equal to the depth-weighted mean within 1e-9 in ${equal} (median ${median(devs).toExponential(2)}, max ${Math.max(...devs).toExponential(2)}); ` +
        `between the two pools' prices in ${between}; nearer the deeper pool in ${nearerDeeper}; the 0.05 % pool's weight median ${pct(median(shares))}, min ${pct(Math.min(...shares))}, max ${pct(Math.max(...shares))}\n`,
    );
    expect(missing).toEqual([]);
    expect(equal).toBe(compared);
    expect(between).toBe(compared);
    expect(nearerDeeper).toBe(compared);
    expect(Math.min(...shares)).toBeGreaterThan(0.5);
  });

  it("prices WETH within 0.1 % (median) and 0.6 % (max) of Chainlink ETH/USD at each round of the day (the close of the round's minute)", async () => {
    const { rounds, atRound, atMinute, worst } = await againstChainlinkEth(
      run.platform!.db,
      dir,
      wethKey,
      run.replay!.blockTime(FIRST_BLOCK),
      run.replay!.blockTime(LAST_BLOCK),
    );
    process.stdout.write(
      `real two pools: WETH against Chainlink ETH/USD at ${rounds} rounds: at the round's minute close median ${pct(median(atMinute))}, max ${pct(Math.max(...atMinute))}; at the round's second median ${pct(median(atRound))}, max ${pct(Math.max(...atRound))} (worst ${worst})\n`,
    );
    expect(rounds).toBe(49);
    expect(median(atMinute)).toBeLessThanOrEqual(0.001);
    expect(Math.max(...atMinute)).toBeLessThanOrEqual(0.006);
  });
});
