/**
 * Losing a replica loses no request (issue 20 item 5): two token-data and two quote replicas
 * under load through the gateway (data GETs with a key, estimates), signed orders POSTed to be
 * relayed, and one replica of each killed (SIGKILL) while they are in flight. The gateway sends
 * an idempotent request once more to the other replica when the first finds no replica or gets
 * no answer (NatsRpcClient, within the request's deadline): no GET fails, each POST is answered
 * once, and no order is relayed twice (one relay_submissions row and nonce each, one execution).
 */
import { Interface, JsonRpcProvider, MaxUint256, Wallet, parseEther, zeroPadValue } from 'ethers';
import { Pool } from 'pg';
import { JsonRpcClient } from '@tokensvc/chain';
import { routerInterface } from '@tokensvc/contracts';
import { TEST_ACCOUNTS, manifestToken, startDevnet, type DevnetHandle } from '@tokensvc/devnet';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import { ReplicaPlatform, createTestDatabaseUrl, startLoad } from '@tokensvc/testing';
import { TestPoolEvents } from '../testing/pool-events';
import { seedReadModels } from '../testing/read-models';

// Generous: on a loaded 2-core machine seeding the read models alone can take a minute.
jest.setTimeout(240_000);

const ERC20 = new Interface(['function transfer(address,uint256) returns (bool)', 'function approve(address,uint256) returns (bool)']);
const EXECUTED = routerInterface().getEvent('SignedOrderExecuted')!;
const ORDERS = 3;

interface SignedOrderBody {
  context: { orderId: string };
  signedOrder: {
    domain: Record<string, unknown>;
    types: Record<string, Array<{ name: string; type: string }>>;
    value: Record<string, unknown>;
  };
}

describe('a replica of token-data and of quote killed under load', () => {
  let devnet: DevnetHandle;
  let platform: ReplicaPlatform;
  let provider: JsonRpcProvider;
  let db: Pool;

  beforeAll(async () => {
    // A devnet of this test's own (orders are relayed on it), apart from the shared one's ports.
    devnet = await startDevnet({
      networks: ['ethereum'],
      basePort: Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 100,
      log: () => undefined,
    });
    platform = new ReplicaPlatform('replica_loss', devnet);
    await platform.init({
      natsRequestTimeoutMs: 20_000,
      extraEnv: { RELAY_POLL_MS: '100', RELAY_SUBMISSIONS_PER_CALLER_PER_MINUTE: '100000', RELAY_MAX_FEE_MULTIPLIER: '3' },
      prepare: async ({ natsUrl, net }) => {
        const databaseUrl = createTestDatabaseUrl('replica_loss');
        await migrate(databaseUrl);
        // without the V3 tick scan (minutes on a busy machine): the orders here are small and still execute
        await seedReadModels(databaseUrl, new JsonRpcClient(devnet.rpcUrls['ethereum']!), net, { ticks: false });
        const pool = new Pool({ connectionString: databaseUrl, max: 1 });
        const apiKey = (await new ApiKeysRepository(pool).issue({ tier: 'enterprise', label: 'replica loss' })).key;
        await pool.end();
        const events = await TestPoolEvents.create(natsUrl, 'loss');
        const cleanup = async (): Promise<void> => {
          await events.dispose();
          await dropDatabase(databaseUrl);
        };
        return { databaseUrl, apiKey, env: { QUOTE_EVENTS_STREAM: events.stream, QUOTE_EVENTS_PREFIX: events.prefix }, cleanup };
      },
    });
    const started = await Promise.all([
      platform.start('gateway'),
      platform.start('token-data', 'token-data-1'),
      platform.start('token-data', 'token-data-2'),
      platform.start('quote', 'quote-1'),
      platform.start('quote', 'quote-2'),
    ]);
    await Promise.all(started.map((r) => platform.ready(r, 90_000)));
    provider = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 50;
    db = new Pool({ connectionString: platform.databaseUrl, max: 2 });
  }, 230_000);

  afterAll(async () => {
    provider?.destroy();
    await db?.end();
    await platform?.dispose();
    await devnet?.stop();
  });

  it('answers every GET 2xx, each POST once, and relays each order once', async () => {
    const net = platform.net;
    const usdc = manifestToken(net, 'USDC').address.toLowerCase();
    const funder = new Wallet(TEST_ACCOUNTS[1]!.privateKey, provider);
    // Wallets with USDC, the Router approved, and no native token: the relayer pays the gas.
    const wallets: Wallet[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const w = new Wallet(Wallet.createRandom().privateKey, provider);
      await (await funder.sendTransaction({ to: w.address, value: parseEther('1') })).wait(1, 30_000);
      await (
        await funder.sendTransaction({ to: usdc, data: ERC20.encodeFunctionData('transfer', [w.address, 200_000_000n]) })
      ).wait(1, 30_000);
      await (
        await w.sendTransaction({ to: usdc, data: ERC20.encodeFunctionData('approve', [net.contracts.router, MaxUint256]) })
      ).wait(1, 30_000);
      await provider.send('anvil_setBalance', [w.address, '0x0']);
      wallets.push(w);
    }
    const orders = await Promise.all(
      wallets.map(async (w) => {
        const res = await fetch(
          `${platform.base}/v2/portal?sender=${w.address.toLowerCase()}&inputToken=ethereum:${usdc}&inputAmount=100000000&outputToken=ethereum:${net.weth.toLowerCase()}&slippageTolerancePercentage=2`,
        );
        if (res.status !== 200) throw new Error(`GET /v2/portal answered ${res.status}: ${await res.text()}`);
        const o = (await res.json()) as SignedOrderBody;
        return { w, o, signature: await w.signTypedData(o.signedOrder.domain, o.signedOrder.types, o.signedOrder.value) };
      }),
    );

    const trading = startLoad(
      platform.base,
      [`/v2/portal/estimate?inputToken=ethereum:${usdc}&inputAmount=1000000000&outputToken=ethereum:${net.weth.toLowerCase()}`],
      3,
    );
    // At most 2,500 data GETs: the key's plan allows 3,000 a minute, and cached data answers fast
    // enough on a quiet machine to pass that (a 429 is the limit working, not a lost request).
    const data = startLoad(platform.base, ['/v1/networks', '/v2/tokens?networks=ethereum&limit=5', '/v2/platforms?type=dex'], 3, {
      apiKey: platform.apiKey,
      maxRequests: 2_500,
    });
    await new Promise((r) => setTimeout(r, 1500));

    // The POSTs go out, and one replica of each service dies while they (and the GETs) are in flight.
    const posts = orders.map(async ({ o, signature }, i) => {
      const answers: number[] = [];
      const res = await fetch(`${platform.base}/v2/portal?orderId=${o.context.orderId}&signature=${signature}`, {
        method: 'POST',
        headers: { 'x-forwarded-for': `10.250.0.${i + 1}` },
        signal: AbortSignal.timeout(60_000),
      });
      answers.push(res.status);
      return { orderId: o.context.orderId, answers, body: await res.text() };
    });
    await new Promise((r) => setTimeout(r, 30));
    const [tokenData1, quote1] = [
      platform.replicas.find((r) => r.label === 'token-data-1')!,
      platform.replicas.find((r) => r.label === 'quote-1')!,
    ];
    tokenData1.child.kill('SIGKILL');
    quote1.child.kill('SIGKILL');
    await Promise.all([tokenData1.exited, quote1.exited]);
    const posted = await Promise.all(posts);
    await new Promise((r) => setTimeout(r, 2000));
    const [t, d] = await Promise.all([trading.stop(), data.stop()]);

    process.stdout.write(
      `replica loss: trading ${t.total} GETs ${JSON.stringify(t.byStatus)} (slowest ${t.maxMs} ms), data ${d.total} GETs ${JSON.stringify(d.byStatus)} (slowest ${d.maxMs} ms), POSTs ${JSON.stringify(posted.map((p) => p.answers))}\n`,
    );
    expect({ trading: t.failures, data: d.failures }).toEqual({ trading: [], data: [] });
    expect(t.total).toBe(t.started);
    expect(d.total).toBe(d.started);
    expect(t.total + d.total).toBeGreaterThanOrEqual(10);
    for (const p of posted)
      expect({ orderId: p.orderId, answers: p.answers, body: p.answers[0] === 200 ? 'ok' : p.body }).toEqual({
        orderId: p.orderId,
        answers: [200],
        body: 'ok',
      });

    // Relayed once each: one submission and one nonce per order, and one execution on chain.
    const subs = (
      await db.query<{ order_id: string; nonce: string }>(`SELECT order_id, nonce FROM relay_submissions WHERE order_id = ANY($1)`, [
        posted.map((p) => p.orderId),
      ])
    ).rows;
    expect(subs.map((s) => s.order_id).sort()).toEqual(posted.map((p) => p.orderId).sort());
    expect(new Set(subs.map((s) => s.nonce)).size).toBe(ORDERS);
    for (const { w, o } of orders) {
      const status = await finalStatus(o.context.orderId);
      expect({ orderId: o.context.orderId, status }).toEqual({ orderId: o.context.orderId, status: 'mined' });
      const logs = await provider.getLogs({
        address: net.contracts.router,
        topics: [EXECUTED.topicHash, zeroPadValue(w.address, 32)],
        fromBlock: 0,
        toBlock: 'latest',
      });
      expect(
        logs.filter((l) => (routerInterface().parseLog(l)!.args[1] as bigint).toString() === String(o.signedOrder.value['nonce'])),
      ).toHaveLength(1);
    }
  });

  /** The order's relay status once it is no longer pending (the survivor's sweep re-queues a submission its killed peer had claimed). */
  async function finalStatus(orderId: string): Promise<string> {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const res = await fetch(`${platform.base}/v2/portal/status?orderId=${orderId}`);
      const status = ((await res.json()) as { status: string }).status;
      if (!['quoted', 'pending'].includes(status) || Date.now() > deadline) return status;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
});
