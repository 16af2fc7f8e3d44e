/**
 * Uniswap V4 orders end to end on a private devnet (the same wiring as orders.int-spec.ts): read
 * models seeded from the chain (V4 pools read from the PoolManager's storage), the quote service's
 * graph fed by pool events, orders built by the use cases and sent by a test wallet as returned.
 * The recipient must receive exactly the quoted `outputAmount`, through routes that use the V4
 * pools: ERC-20 → ERC-20, native ETH in and out of the native pools, and a route split across V2,
 * V3 and V4 pools.
 */
import { JsonRpcProvider, Wallet } from 'ethers';
import { JsonRpcClient } from '@tokensvc/chain';
import {
  TEST_ACCOUNTS,
  manifestPlatform,
  manifestToken,
  networkManifest,
  startDevnet,
  type DevnetHandle,
  type NetworkManifest,
  relayerKeyEnv,
} from '@tokensvc/devnet';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl } from '@tokensvc/testing';
import { headBlock } from '../testing/chain-pools';
import { OrderRunner, type RunResult } from '../testing/order-runner';
import { TestPoolEvents } from '../testing/pool-events';
import { startQuoteHarness, syncGraphTo, type QuoteHarness } from '../testing/quote-harness';
import { seedReadModels } from '../testing/read-models';
import { ApprovalUseCase } from './approval.usecase';
import { BuildOrderUseCase } from './build-order.usecase';
import { EstimateUseCase } from './estimate.usecase';

jest.setTimeout(180_000);

interface Hop {
  pool: string;
  platform: string;
  next: Hop[];
}

describe('Uniswap V4 orders on a private devnet', () => {
  let devnet: DevnetHandle;
  let net: NetworkManifest;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let harness: QuoteHarness;
  let rpc: JsonRpcClient;
  let provider: JsonRpcProvider;
  let runner: OrderRunner;
  let wallet: Wallet;
  let snapshot: string;
  let lastEventBlock = 0;
  const key = (address: string): string => `ethereum:${address.toLowerCase()}`;
  const token = (symbol: string): string => key(manifestToken(net, symbol).address);
  const NATIVE = 'ethereum:0x0000000000000000000000000000000000000000';
  /** The V4 pool of two symbols (either order), by id. */
  const v4Pool = (pair: string): string => {
    const [a, b] = pair.split('/');
    return manifestPlatform(net, 'uniswap-v4')
      .pools.find((p) => p.pair === `${a}/${b}` || p.pair === `${b}/${a}`)!
      .address.toLowerCase();
  };

  async function syncGraph(): Promise<void> {
    lastEventBlock = Math.max(await headBlock(rpc), lastEventBlock + 1);
    await syncGraphTo(harness, events, rpc, net, lastEventBlock);
  }

  beforeAll(async () => {
    devnet = await startDevnet({ networks: ['ethereum'], basePort: 38745, log: () => undefined });
    net = networkManifest(devnet.manifest, 'ethereum');
    rpc = new JsonRpcClient(devnet.rpcUrls['ethereum']!);
    databaseUrl = createTestDatabaseUrl('quote_v4_orders');
    await migrate(databaseUrl);
    await seedReadModels(databaseUrl, rpc, net);
    events = await TestPoolEvents.create(INFRA.nats, 'v4orders');
    harness = await startQuoteHarness({
      databaseUrl,
      natsUrl: INFRA.nats,
      rpcUrl: devnet.rpcUrls['ethereum']!,
      manifestPath: devnet.manifestPath,
      relayerKeys: relayerKeyEnv(devnet.manifestPath),
      stream: events.stream,
      prefix: events.prefix,
    });
    provider = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 20;
    wallet = new Wallet(TEST_ACCOUNTS[0]!.privateKey, provider);
    runner = new OrderRunner(
      provider,
      harness.app.get(EstimateUseCase),
      harness.app.get(ApprovalUseCase),
      harness.app.get(BuildOrderUseCase),
    );
  }, 240_000);

  afterAll(async () => {
    provider?.destroy();
    await harness?.close();
    await events?.dispose();
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  beforeEach(async () => {
    snapshot = await rpc.call<string>('evm_snapshot');
    await syncGraph();
  });
  afterEach(async () => {
    await rpc.call('evm_revert', [snapshot]);
  });

  /** The recipient got exactly the quote, through the calls the order returned. */
  function expectExact(r: RunResult): void {
    expect(r.routeHash).toBe(r.order.context!.routeHash);
    expect(r.received).toBe(r.balanceDelta);
    expect(r.received).toBe(BigInt(r.order.context!.outputAmount));
  }

  /** Every hop of the explained route: platform and pool. */
  function hops(r: RunResult): Hop[] {
    const out: Hop[] = [];
    const walk = (list: readonly Hop[]): void => {
      for (const h of list) {
        out.push(h);
        walk(h.next);
      }
    };
    walk((r.order.explain?.route ?? []) as unknown as Hop[]);
    return out;
  }

  it('swaps an ERC-20 for another through a V4 pool for exactly the quote', async () => {
    // The V4 UNI/WETH pool has the lowest fee of the three UNI/WETH pools (0.25 %).
    const r = await runner.run(wallet, {
      inputToken: token('UNI'),
      inputAmount: (5_000n * 10n ** 18n).toString(),
      outputToken: token('WETH'),
      explain: true,
    });
    expectExact(r);
    expect(hops(r).map((h) => h.pool)).toContain(v4Pool('UNI/WETH'));
  });

  it('swaps native ETH in and out through the native V4 pools for exactly the quote', async () => {
    const toUsdc = await runner.run(wallet, {
      inputToken: NATIVE,
      inputAmount: (25n * 10n ** 18n).toString(),
      outputToken: token('USDC'),
      explain: true,
    });
    expectExact(toUsdc);
    expect(hops(toUsdc).map((h) => h.pool)).toContain(v4Pool('ETH/USDC'));
    await rpc.call('evm_revert', [snapshot]);
    snapshot = await rpc.call<string>('evm_snapshot');
    const toEth = await runner.run(wallet, {
      inputToken: token('WBTC'),
      inputAmount: (10n ** 8n).toString(),
      outputToken: NATIVE,
      explain: true,
    });
    expectExact(toEth);
    expect(hops(toEth).map((h) => h.pool)).toContain(v4Pool('ETH/WBTC'));
  });

  it('splits a large order across Uniswap V2, V3 and V4 pools and delivers exactly the quote', async () => {
    // 1,000 ETH (about 3M USD): more than any one WETH/USDC pool takes at its best price.
    const r = await runner.run(wallet, {
      inputToken: NATIVE,
      inputAmount: (1_000n * 10n ** 18n).toString(),
      outputToken: token('USDC'),
      explain: true,
    });
    expectExact(r);
    const platforms = new Set(hops(r).map((h) => h.platform));
    expect([...platforms]).toEqual(expect.arrayContaining(['uniswap-v2', 'uniswap-v3', 'uniswap-v4']));
  });
});
