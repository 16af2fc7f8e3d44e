/**
 * Quotes pinned to a block, and explained, with the real feed: the indexer app as a process on a
 * private devnet publishes pool states and IndexedHead to this test's own JetStream stream, the
 * quote service's real wiring (QuoteModule) follows it. While swaps land, every quote must report
 * the block (number and hash: the chain's) of the graph state it used, and its `explain` figures
 * must be the chain's own at that block: each hop of the best single path and the best direct
 * pool re-quoted by eth_call with that block tag (V2 reserves and the pair formula, V3 QuoterV2).
 */
import { Contract, JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { Client } from 'pg';
import { connect, type NatsConnection } from 'nats';
import { JsonRpcClient } from '@tokensvc/chain';
import {
  TEST_ACCOUNTS,
  manifestPlatform,
  manifestToken,
  networkManifest,
  platformAddress,
  startDevnet,
  type DevnetHandle,
  type NetworkManifest,
  relayerKeyEnv,
} from '@tokensvc/devnet';
import type { EstimateReply, Explain, ExplainHop } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl, freePort, startApp, stopProcess, type AppProcess } from '@tokensvc/testing';
import { headBlock } from '../testing/chain-pools';
import { type V4Pools, onChainAmountOut } from '../testing/onchain-quotes';
import { startQuoteHarness, type QuoteHarness } from '../testing/quote-harness';
import { BuildOrderUseCase } from './build-order.usecase';
import { EstimateUseCase } from './estimate.usecase';

jest.setTimeout(120_000);

const NATIVE = 'ethereum:0x0000000000000000000000000000000000000000';
const BASE_PORT = Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 40;
const ROUTER02 = [
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
];

const hops = (list: readonly ExplainHop[]): ExplainHop[] => list.flatMap((h) => [h, ...hops(h.next)]);
const leafSum = (e: Explain): bigint =>
  hops(e.route)
    .filter((h) => h.next.length === 0)
    .reduce((s, h) => s + BigInt(h.amountOut), 0n);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('quotes pinned to the indexed block and explained (indexer process -> JetStream -> quote graph)', () => {
  let devnet: DevnetHandle;
  let net: NetworkManifest;
  let rpc: JsonRpcClient;
  let databaseUrl: string;
  let indexer: AppProcess;
  let harness: QuoteHarness;
  let nc: NatsConnection;
  let provider: JsonRpcProvider;
  let wallet: Wallet;
  let estimates: EstimateUseCase;
  let orders: BuildOrderUseCase;
  let quoter: string;
  let v4: V4Pools;
  const lines: string[] = [];
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  const stream = `PINNED_${suffix}`.toUpperCase();
  const prefix = `pinned-${suffix}`;
  const usdc = (): string => `ethereum:${manifestToken(net, 'USDC').address.toLowerCase()}`;

  const cursor = async (): Promise<number> => {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ block_number: string }>(`SELECT block_number FROM index_cursors WHERE network = 'ethereum'`);
      return rows[0] ? Number(rows[0].block_number) : -1;
    } finally {
      await db.end();
    }
  };

  const graphAt = async (block: number): Promise<void> => {
    const graph = harness.graphs.get('ethereum');
    const deadline = Date.now() + 30_000;
    while (graph.head.blockNumber < block) {
      if (Date.now() > deadline) {
        const info = await (await nc.jetstreamManager()).streams.info(stream).catch((e: Error) => e.message);
        throw new Error(
          `the graph stayed at ${graph.head.blockNumber} (indexer cursor ${await cursor()}, ${harness.events.received} events), below ${block}; stream ${JSON.stringify(typeof info === 'string' ? info : info.state)}\n${lines.slice(-20).join('\n')}`,
        );
      }
      await sleep(25);
    }
  };

  /** A V2 swap on the chain (WETH -> USDC): a pool state the indexer publishes. */
  const swap = async (eth: string): Promise<void> => {
    const router = new Contract(platformAddress(manifestPlatform(net, 'uniswap-v2'), 'router'), ROUTER02, wallet);
    const tx = (await router.getFunction('swapExactETHForTokens')(
      0n,
      [net.weth, manifestToken(net, 'USDC').address],
      wallet.address,
      2n ** 40n,
      { value: parseEther(eth), gasLimit: 300_000n },
    )) as { wait(): Promise<unknown> };
    await tx.wait();
  };

  /** The chain's block at `n` (number and hash). */
  const chainBlock = async (n: number): Promise<{ number: string; hash: string }> =>
    rpc.call('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);

  /** Every figure of the single path and the direct pool is the chain's at the pinned block. */
  const expectOnChain = async (e: Explain, block: number): Promise<void> => {
    const single = e.bestSinglePath!;
    const direct = e.bestDirectPool!;
    for (const hop of [...single.hops, ...direct.hops]) {
      expect([hop.pool, hop.amountOut]).toEqual([hop.pool, (await onChainAmountOut(rpc, quoter, hop, block, v4)).toString()]);
    }
    expect(BigInt(single.improvementBps)).toBe(((BigInt(e.amountOut) - BigInt(single.amountOut)) * 10_000n) / BigInt(single.amountOut));
  };

  beforeAll(async () => {
    // past states kept: the figures are checked at each quote's block while the chain moves on
    devnet = await startDevnet({ networks: ['ethereum'], basePort: BASE_PORT, historyStates: 256, log: () => undefined });
    net = networkManifest(devnet.manifest, 'ethereum');
    rpc = new JsonRpcClient(devnet.rpcUrls['ethereum']!);
    quoter = platformAddress(manifestPlatform(net, 'uniswap-v3'), 'quoter');
    const v4Platform = manifestPlatform(net, 'uniswap-v4');
    v4 = { poolManager: platformAddress(v4Platform, 'poolManager'), pools: v4Platform.pools };
    databaseUrl = createTestDatabaseUrl('quote_pinned');
    await migrate(databaseUrl);
    const env = {
      databaseUrl,
      natsUrl: INFRA.nats,
      redisUrl: INFRA.redis,
      rpcUrls: { ethereum: devnet.rpcUrls['ethereum']! },
      manifestPath: devnet.manifestPath,
      gatewayPort: 0,
      healthPortBase: (await freePort()) - 3,
    };
    indexer = startApp(
      'indexer',
      {
        ...env,
        logLevel: 'warn',
        extraEnv: { INDEXER_EVENTS_STREAM: stream, INDEXER_EVENTS_PREFIX: prefix, INDEXER_INITIAL_RANGE: '500' },
      },
      (_app, line) => lines.push(line),
    );
    const head = await headBlock(rpc);
    const deadline = Date.now() + 90_000;
    while ((await cursor()) < head) {
      if (Date.now() > deadline) throw new Error(`the indexer did not reach ${head}\n${lines.slice(-30).join('\n')}`);
      await sleep(200);
    }
    harness = await startQuoteHarness({
      databaseUrl,
      natsUrl: INFRA.nats,
      rpcUrl: devnet.rpcUrls['ethereum']!,
      manifestPath: devnet.manifestPath,
      relayerKeys: relayerKeyEnv(devnet.manifestPath),
      stream,
      prefix,
    });
    nc = await connect({ servers: INFRA.nats });
    provider = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 20;
    wallet = new Wallet(TEST_ACCOUNTS[3]!.privateKey, provider);
    estimates = harness.app.get(EstimateUseCase);
    orders = harness.app.get(BuildOrderUseCase);
  }, 180_000);

  afterAll(async () => {
    provider?.destroy();
    await harness?.close();
    if (indexer) await stopProcess(indexer);
    if (nc) {
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.drain();
    }
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  it('reports the block and hash of the graph state it used, as the graph follows the chain', async () => {
    for (let round = 0; round < 3; round++) {
      await swap('2');
      await rpc.call('evm_mine');
      const head = await headBlock(rpc);
      await graphAt(head);
      const graph = harness.graphs.get('ethereum');
      const estimate = await estimates.execute({
        inputToken: NATIVE,
        inputAmount: parseEther('40').toString(),
        outputToken: usdc(),
        explain: true,
      });
      const [pinned] = estimate.context!.pinnedBlocks;
      expect(estimate.context!.pinnedBlocks).toHaveLength(1);
      expect(pinned).toEqual({ network: 'ethereum', blockNumber: String(graph.head.blockNumber), blockHash: graph.head.blockHash });
      expect(pinned!.blockNumber).toBe(String(head));
      expect(pinned!.blockHash).toBe((await chainBlock(head)).hash);
      // The chain is idle: the simulated output is the graph's, and the tree adds up to it.
      const e = estimate.explain!;
      expect(e.amountOut).toBe(estimate.outputAmount);
      expect(leafSum(e)).toBe(BigInt(estimate.outputAmount));
      for (const h of hops(e.route))
        if (h.next.length > 0) expect(h.next.reduce((s, n) => s + BigInt(n.amountIn), 0n)).toBe(BigInt(h.amountOut));
      await expectOnChain(e, head);
    }
  });

  it('while swaps keep landing, each quote is the chain at the block it reports', async () => {
    // (the devnet loads its chain from a state dump: eth_call reaches the blocks mined since, not the loaded tip)
    await swap('1');
    await graphAt(await headBlock(rpc));
    let stop = false;
    const swapping = (async () => {
      while (!stop) {
        await swap('0.7');
        await sleep(40);
      }
    })();
    const results: EstimateReply[] = [];
    try {
      // Quote until the graph has moved on a few times while quoting (at least 10 quotes).
      const deadline = Date.now() + 30_000;
      const seen = (): number => new Set(results.map((r) => r.context!.pinnedBlocks[0]!.blockNumber)).size;
      while ((results.length < 10 || seen() < 3) && Date.now() < deadline) {
        results.push(
          await estimates.execute({ inputToken: NATIVE, inputAmount: parseEther('25').toString(), outputToken: usdc(), explain: true }),
        );
        await sleep(60);
      }
    } finally {
      stop = true;
      await swapping;
    }
    const blocks = results.map((r) => Number(r.context!.pinnedBlocks[0]!.blockNumber));
    expect(new Set(blocks).size).toBeGreaterThanOrEqual(3); // the graph advanced while quoting
    for (const [i, r] of results.entries()) {
      const [pinned] = r.context!.pinnedBlocks;
      expect(pinned!.blockHash).toBe((await chainBlock(blocks[i]!)).hash);
      await expectOnChain(r.explain!, blocks[i]!);
    }
  });

  it('an order (GET /v2/portal) carries the same: pinned block, a tree that adds up to outputAmount, alternatives', async () => {
    const head = await headBlock(rpc);
    await graphAt(head);
    const order = await orders.execute({
      sender: wallet.address,
      inputToken: NATIVE,
      inputAmount: parseEther('30').toString(),
      outputToken: usdc(),
      explain: true,
    });
    const c = order.context!;
    expect(c.pinnedBlocks).toEqual([{ network: 'ethereum', blockNumber: String(head), blockHash: (await chainBlock(head)).hash }]);
    const e = order.explain!;
    expect(leafSum(e)).toBe(BigInt(c.outputAmount));
    expect(e.route.reduce((s, h) => s + BigInt(h.amountIn), 0n)).toBe(BigInt(e.amountIn));
    await expectOnChain(e, head);
    // explain is optional: without it the answer has none
    expect(
      (await estimates.execute({ inputToken: NATIVE, inputAmount: parseEther('1').toString(), outputToken: usdc() })).explain,
    ).toBeUndefined();
  });
});
