/**
 * Seven real Uniswap V2 WETH pairs (USDC, USDT, DAI, WBTC, LINK, PEPE, PAXG) as they stood at
 * block 18,476,512 (2023-11-01 09:58:35 UTC), served by the platform in its production
 * configuration, and its USD prices and a quote compared with Chainlink, the reserves-derived
 * reference and the pair's own router (docs/real-data.md, issue 32).
 *
 * - The chain: the mainnet-shaped devnet's ethereum: the real Uniswap V2 factory and Router02 and
 *   the tokens at their real addresses, so a pair the factory creates lands at its real address
 *   (CREATE2 with the published init code hash). The devnet's USDT/WETH and PAXG/WETH pairs do not
 *   exist: they are created through the factory (PAXG, which the devnet does not place, gets the
 *   runtime code of the devnet's PEPE, an 18-decimal TestERC20, with its own name and symbol). Each
 *   pair's slot 8 (reserve0, reserve1, blockTimestampLast) is set to the recorded word, and its
 *   token balances to its reserves (the data has no balances: a pair's balances equal its reserves
 *   after every swap, mint, burn or sync). Every other pair of the listed tokens (the devnet's
 *   USDC/DAI) is taken out of the factory's getPair mapping, so the scope is the recorded pairs.
 * - The replay: the block alone (no log), through `startReplayRpc`, so the apps see block
 *   18,476,512 and its timestamp; every call goes to the anvil.
 * - The apps: indexer, token-data, gateway and quote with `npm run start:real`'s settings and
 *   REGISTRY = the shipped registry cut to the seven tokens, WETH and Uniswap V2, plus PEPE and PAXG
 *   (not in the shipped registry: added as entries of the same shape, their source the Uniswap
 *   default token list like the devnet's own PEPE), written into a temp dir.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AbiCoder, Contract, Interface, JsonRpcProvider, getAddress, keccak256 } from 'ethers';
import { loadRegistry } from '@tokensvc/chain';
import { startReplayRpc } from '@tokensvc/testing';
import {
  gatewayUp,
  pct,
  realDataDir,
  rel,
  setErc20Balance,
  startProfile,
  startRealPlatform,
  stopRun,
  tempDir,
  untilIndexed,
  writeRegistryCut,
  type RealPlatform,
  type RealRun,
  type RegistryToken,
} from './real-data';

jest.setTimeout(240_000);

const ZERO = '0x0000000000000000000000000000000000000000';
const word = (v: bigint | number | string): string => `0x${BigInt(v).toString(16).padStart(64, '0')}`;

interface RecordedPair {
  pair: string;
  token0: string;
  token0_symbol: string;
  token1: string;
  token1_symbol: string;
  slot8_raw: string;
  reserve0: string;
  reserve1: string;
}
interface State {
  block: { number: number; timestamp: number };
  uniswap_v2_pairs: RecordedPair[];
  tokens: Record<string, { symbol: string; decimals: number }>;
}
interface Reference {
  chainlink: Array<{ pair: string; answer_decimal: number; updatedAt: number }>;
  derived_reference: {
    per_pair: Array<{ pair: string; token: string; spot_price_in_WETH: number; spot_price_usd_via_chainlink_eth: number }>;
  };
}

const ERC20 = new Interface(['function symbol() view returns (string)']);

/** A short Solidity string in its storage word (length x 2 in the last byte). */
const shortString = (s: string): string =>
  `0x${Buffer.from(s, 'utf8').toString('hex').padEnd(62, '0')}${(s.length * 2).toString(16).padStart(2, '0')}`;

describe('seven real Uniswap V2 pairs at block 18,476,512 served in the production configuration', () => {
  const dir = realDataDir();
  const state = JSON.parse(readFileSync(join(dir, 'foundry-cache-18476512', 'mainnet-18476512-v2-state.json'), 'utf8')) as State;
  const reference = JSON.parse(readFileSync(join(dir, 'reference', 'mainnet-18476512-reference.json'), 'utf8')) as Reference;
  const BLOCK = state.block.number;
  const registry = loadRegistry('shipped');
  const eth = registry.networks.ethereum!;
  const v2 = eth.platforms.find((p) => p.slug === 'uniswap-v2')!;
  const FACTORY = (v2.addresses['factory'] as { address: string }).address;
  const ROUTER = (v2.addresses['router'] as { address: string }).address;
  const addressOf = (symbol: string): string => Object.entries(state.tokens).find(([, t]) => t.symbol === symbol)![0];
  const WETH = addressOf('WETH');
  const USDC = addressOf('USDC');
  const key = (symbol: string): string => `ethereum:${addressOf(symbol)}`;
  const chainlink = (pair: string): number => reference.chainlink.find((c) => c.pair === pair)!.answer_decimal;
  const run: RealRun = {};
  let provider: JsonRpcProvider;
  let platform: RealPlatform;
  let routerOut = 0n;
  const prices = new Map<string, number>();

  const getPair = async (a: string, b: string): Promise<string> =>
    String(
      await new Contract(FACTORY, ['function getPair(address,address) view returns (address)'], provider).getFunction('getPair')(a, b),
    ).toLowerCase();

  beforeAll(async () => {
    const t0 = Date.now();
    expect(state.uniswap_v2_pairs).toHaveLength(7);
    const started = await startProfile('ethereum', registry);
    Object.assign(run, { devnet: started.devnet, provider: started.provider });
    provider = started.provider;

    // PAXG: not placed by the devnet; the runtime code of its PEPE (an 18-decimal TestERC20: decimals is an immutable) with PAXG's name and symbol (slots 3 and 4).
    const PAXG = addressOf('PAXG');
    if ((await provider.getCode(PAXG)) === '0x') {
      await provider.send('anvil_setCode', [PAXG, await provider.getCode(addressOf('PEPE'))]);
      await provider.send('anvil_setStorageAt', [PAXG, word(3), shortString('Paxos Gold')]);
      await provider.send('anvil_setStorageAt', [PAXG, word(4), shortString('PAXG')]);
    }
    expect(ERC20.decodeFunctionResult('symbol', await provider.call({ to: PAXG, data: ERC20.encodeFunctionData('symbol') }))[0]).toBe(
      'PAXG',
    );
    // The pairs the devnet lacks, created by the real factory (so at their real addresses).
    const sender = '0x000000000000000000000000000000000000f00d';
    await provider.send('anvil_impersonateAccount', [sender]);
    await provider.send('anvil_setBalance', [sender, word(10n ** 20n)]);
    const factoryIface = new Interface(['function createPair(address,address) returns (address)']);
    for (const p of state.uniswap_v2_pairs) {
      if ((await getPair(p.token0, p.token1)) !== ZERO) continue;
      const hash = (await provider.send('eth_sendTransaction', [
        { from: sender, to: FACTORY, data: factoryIface.encodeFunctionData('createPair', [p.token0, p.token1]), gas: word(5_000_000) },
      ])) as string;
      expect((await provider.waitForTransaction(hash, 1, 30_000))?.status).toBe(1);
    }
    for (const p of state.uniswap_v2_pairs)
      expect(`${p.token0_symbol}/${p.token1_symbol} ${await getPair(p.token0, p.token1)}`).toBe(
        `${p.token0_symbol}/${p.token1_symbol} ${p.pair}`,
      );
    // Only the recorded pairs among the listed tokens: the others (the devnet's USDC/DAI) leave getPair (slot 2: mapping(address => mapping(address => address))).
    const coder = AbiCoder.defaultAbiCoder();
    const pairSlot = (a: string, b: string): string =>
      keccak256(coder.encode(['address', 'bytes32'], [b, keccak256(coder.encode(['address', 'uint256'], [a, 2]))]));
    const recorded = new Set(state.uniswap_v2_pairs.map((p) => p.pair));
    const symbols = Object.keys(state.tokens);
    const removed: string[] = [];
    for (const [i, a] of symbols.entries()) {
      for (const b of symbols.slice(i + 1)) {
        const pair = await getPair(a, b);
        if (pair === ZERO || recorded.has(pair)) continue;
        expect(BigInt(await provider.getStorage(FACTORY, pairSlot(a, b)))).toBe(BigInt(pair));
        await provider.send('anvil_setStorageAt', [FACTORY, pairSlot(a, b), word(0)]);
        await provider.send('anvil_setStorageAt', [FACTORY, pairSlot(b, a), word(0)]);
        expect(await getPair(a, b)).toBe(ZERO);
        removed.push(`${state.tokens[a]!.symbol}/${state.tokens[b]!.symbol}`);
      }
    }
    // The recorded reserves (slot 8) and, as the pair's balances, the same amounts.
    for (const p of state.uniswap_v2_pairs) {
      await provider.send('anvil_setStorageAt', [p.pair, word(8), word(p.slot8_raw)]);
      const r = (await new Contract(p.pair, ['function getReserves() view returns (uint112, uint112, uint32)'], provider).getFunction(
        'getReserves',
      )()) as [bigint, bigint, bigint];
      expect([r[0], r[1]]).toEqual([BigInt(p.reserve0), BigInt(p.reserve1)]);
      await setErc20Balance(provider, p.token0, p.pair, BigInt(p.reserve0));
      await setErc20Balance(provider, p.token1, p.pair, BigInt(p.reserve1));
    }
    // The pair's own answer on this state: UniswapV2Router02.getAmountsOut at its real address.
    const amounts = (await new Contract(
      ROUTER,
      ['function getAmountsOut(uint256, address[]) view returns (uint256[])'],
      provider,
    ).getFunction('getAmountsOut')(10n ** 19n, [WETH, USDC])) as bigint[];
    routerOut = amounts[1]!;
    process.stdout.write(
      `real V2: pairs placed (out of scope: ${removed.join(', ') || 'none'}); UniswapV2Router02.getAmountsOut(10 WETH -> USDC) = ${routerOut}\n`,
    );

    const replay = (run.replay = await startReplayRpc({
      upstream: started.rpcUrl,
      logs: [],
      blockTimes: new Map([[BLOCK, state.block.timestamp]]),
      firstBlock: BLOCK,
      lastBlock: BLOCK,
    }));
    const tmp = (run.tmp = tempDir('real-v2-'));
    // PEPE and PAXG are not in the shipped registry: entries of the same shape (their real addresses, the data's decimals).
    const added: RegistryToken[] = [
      {
        symbol: 'PEPE',
        name: 'Pepe',
        decimals: 18,
        address: getAddress(addressOf('PEPE')),
        source: {
          package: '@uniswap/default-token-list',
          version: '(test)',
          path: 'tokens[chainId=1,symbol=PEPE]',
          curation: 'issue 32 test: a real V2 pair at block 18,476,512',
        },
      },
      {
        symbol: 'PAXG',
        name: 'Paxos Gold',
        decimals: 18,
        address: getAddress(PAXG),
        source: {
          package: '(real data)',
          version: '18476512',
          path: 'foundry-cache-18476512 tokens',
          curation: 'issue 32 test: a real V2 pair at block 18,476,512',
        },
      },
    ];
    const registryFile = writeRegistryCut(tmp.dir, registry, 'ethereum', {
      tokens: ['USDC', 'USDT', 'DAI', 'WBTC', 'LINK', 'WETH'],
      platforms: ['uniswap-v2'],
      add: added,
    });
    platform = run.platform = await startRealPlatform({
      name: 'real_v2',
      network: 'ethereum',
      rpcUrl: replay.url,
      router: started.devnet.manifest.networks[0]!.contracts.router,
      startBlock: BLOCK,
      registry: registryFile,
      apps: ['indexer', 'token-data', 'gateway'],
    });
    await untilIndexed(platform, 'ethereum', BLOCK, 120_000);
    await gatewayUp(platform);
    // quote learns the pools from what the indexer published: started once it has
    platform.start('quote');
    const until = Date.now() + 120_000;
    for (;;) {
      const ok = await platform
        .get(`/v2/portal/estimate?inputToken=${key('WETH')}&inputAmount=${10n ** 19n}&outputToken=${key('USDC')}`)
        .then(
          () => true,
          (e: Error) => e.message,
        );
      if (ok === true) break;
      if (Date.now() > until) throw new Error(`no quote WETH -> USDC after 120 s (${ok})\n${platform.tail()}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const served = (
      await platform.get<{ tokens: Array<{ key: string; price: number }> }>(
        `/v2/tokens?ids=${Object.keys(state.tokens)
          .map((a) => `ethereum:${a}`)
          .join(',')}&finality=latest`,
      )
    ).tokens;
    for (const t of served) prices.set(t.key, t.price);
    process.stdout.write(
      `real V2: platform ready in ${((Date.now() - t0) / 1000).toFixed(1)} s; prices ${[...prices].map(([k, p]) => `${state.tokens[k.split(':')[1]!]?.symbol}=${p}`).join(' ')}\n`,
    );
  }, 300_000);

  afterAll(() => stopRun(run));

  /** the pairs' price of WETH in a stablecoin (human units) and that side's depth */
  const wethQuotes = (): Array<{ symbol: string; price: number; depth: number }> =>
    state.uniswap_v2_pairs
      .filter((p) => ['USDC', 'USDT', 'DAI'].includes(p.token0_symbol === 'WETH' ? p.token1_symbol : p.token0_symbol))
      .map((p) => {
        const wethIs0 = p.token0_symbol === 'WETH';
        const stable = wethIs0 ? p.token1 : p.token0;
        const human = (raw: string, token: string): number => Number(raw) / 10 ** state.tokens[token]!.decimals;
        const w = human(wethIs0 ? p.reserve0 : p.reserve1, WETH);
        const s = human(wethIs0 ? p.reserve1 : p.reserve0, stable);
        return { symbol: state.tokens[stable]!.symbol, price: s / w, depth: s };
      });

  it("prices WETH as the stablecoin pairs' depth-weighted mean, within 0.5 % of Chainlink ETH/USD", () => {
    // the service's rule (derive/README.md, price graph): stablecoins are $1; WETH's quote from each pair weighted by 2 x the stablecoin side
    const quotes = wethQuotes();
    const want = quotes.reduce((s, q) => s + q.price * q.depth, 0) / quotes.reduce((s, q) => s + q.depth, 0);
    const served = prices.get(key('WETH'))!;
    const cl = chainlink('ETH / USD');
    process.stdout.write(
      `real V2: WETH served ${served}; the pairs ${quotes.map((q) => `${q.symbol} ${q.price.toFixed(4)} (depth ${q.depth.toFixed(0)})`).join(', ')}; weighted ${want}; Chainlink ${cl}: ${pct(rel(served, cl))}\n`,
    );
    expect(rel(served, want)).toBeLessThan(1e-9);
    expect(rel(served, cl)).toBeLessThanOrEqual(0.005);
  });

  it.each([
    ['WBTC', 'BTC / USD'],
    ['LINK', 'LINK / USD'],
  ])('prices %s through WETH within 0.5 %% of Chainlink %s', (symbol, feed) => {
    const served = prices.get(key(symbol))!;
    const ref = reference.derived_reference.per_pair.find((p) => p.token === symbol)!;
    const cl = chainlink(feed);
    process.stdout.write(
      `real V2: ${symbol} served ${served}; reserves x served WETH ${ref.spot_price_in_WETH * prices.get(key('WETH'))!}; Chainlink ${cl}: ${pct(rel(served, cl))}\n`,
    );
    expect(rel(served, ref.spot_price_in_WETH * prices.get(key('WETH'))!)).toBeLessThan(1e-9);
    expect(rel(served, cl)).toBeLessThanOrEqual(0.005);
  });

  it.each(['PEPE', 'PAXG'])('prices %s through WETH (the reserves-derived reference)', (symbol) => {
    const served = prices.get(key(symbol))!;
    const ref = reference.derived_reference.per_pair.find((p) => p.token === symbol)!;
    const viaServedWeth = ref.spot_price_in_WETH * prices.get(key('WETH'))!;
    process.stdout.write(
      `real V2: ${symbol} served ${served}; reserves x served WETH ${viaServedWeth}; reference (reserves x Chainlink ETH) ${ref.spot_price_usd_via_chainlink_eth}: ${pct(rel(served, ref.spot_price_usd_via_chainlink_eth))}\n`,
    );
    expect(rel(served, viaServedWeth)).toBeLessThan(1e-9);
    expect(rel(served, ref.spot_price_usd_via_chainlink_eth)).toBeLessThanOrEqual(0.005);
  });

  it("quotes 10 WETH -> USDC (GET /v2/portal/estimate) at the pair's own getAmountsOut on the same state", async () => {
    const usdcWeth = state.uniswap_v2_pairs.find((p) => p.token0_symbol === 'USDC')!;
    // Uniswap V2's formula, as a check of the router's answer: in x 997 x rOut / (rIn x 1000 + in x 997)
    const amountIn = 10n ** 19n;
    const formula = (amountIn * 997n * BigInt(usdcWeth.reserve0)) / (BigInt(usdcWeth.reserve1) * 1000n + amountIn * 997n);
    expect(routerOut).toBe(formula);
    const quote = await platform.get<{ outputAmount: string; context: Record<string, unknown> }>(
      `/v2/portal/estimate?inputToken=${key('WETH')}&inputAmount=${amountIn}&outputToken=${key('USDC')}`,
    );
    process.stdout.write(
      `real V2: 10 WETH -> USDC quoted ${quote.outputAmount}, router ${routerOut} (${JSON.stringify(quote.context).slice(0, 300)})\n`,
    );
    expect(BigInt(quote.outputAmount)).toBe(routerOut);
  });
});
