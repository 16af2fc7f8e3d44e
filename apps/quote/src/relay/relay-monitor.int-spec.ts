/**
 * The relayer gauges against a real chain (anvil) and a migrated database: the wallet's balance,
 * pending and stuck relayed orders, the oldest one's age, and the nonce gap the reconciler repairs.
 */
import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { Pool } from 'pg';
import { JsonRpcClient } from '@tokensvc/chain';
import { startAnvil, type AnvilProcess } from '@tokensvc/devnet';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import { QUOTE_METRICS } from '../metrics';
import { RelayMonitor } from './relay-monitor';
import type { RelayNetwork } from './relay-types';

jest.setTimeout(60_000);

const gauge = async (g: {
  get(): Promise<{ values: Array<{ labels: Record<string, unknown>; value: number }> }>;
}): Promise<number | undefined> => (await g.get()).values.find((v) => v.labels['network'] === 'ethereum')?.value;

describe('RelayMonitor (relayer gauges)', () => {
  let anvil: AnvilProcess;
  let databaseUrl: string;
  let pool: Pool;
  let net: RelayNetwork;
  const wallet = Wallet.createRandom();
  const relayer = wallet.address.toLowerCase();

  beforeAll(async () => {
    const port = Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 900;
    anvil = await startAnvil({ host: '127.0.0.1', port, chainId: 1 });
    databaseUrl = createTestDatabaseUrl('relay_monitor');
    await migrate(databaseUrl);
    pool = new Pool({ connectionString: databaseUrl, max: 2 });
    net = {
      network: 'ethereum',
      chainId: 1,
      router: '0x000000000000000000000000000000000000dead',
      rpc: new JsonRpcClient(anvil.rpcUrl),
      wallet: new Wallet(wallet.privateKey),
    };
  });

  afterAll(async () => {
    await pool?.end();
    await anvil?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  async function submission(nonce: number, state: string, ageSeconds: number): Promise<void> {
    const id = randomUUID();
    await pool.query(
      `INSERT INTO orders (order_id, network, chain_id, sender, expires_at, keep_until, context, tx, calls) VALUES ($1, 'ethereum', 1, $2, now() + interval '1 hour', now() + interval '7 days', '{}', '{}', '[]')`,
      [id, relayer],
    );
    await pool.query(
      `INSERT INTO relay_submissions (order_id, network, sender, signature, relayer, nonce, state, created_at) VALUES ($1, 'ethereum', $2, '0x', $2, $3, $4, now() - $5::int * interval '1 second')`,
      [id, relayer, nonce, state, ageSeconds],
    );
  }

  it('sets balance, pending, stuck, oldest pending and nonce gap per network', async () => {
    const monitor = new RelayMonitor(pool, new Map([['ethereum', net]]), { stuckAfterMs: 60_000, intervalMs: 60_000 });
    // Nothing relayed yet: an empty wallet, no gap.
    expect(await monitor.sample()).toEqual([
      { network: 'ethereum', balanceWei: 0n, pending: 0, stuck: 0, oldestPendingSeconds: 0, nonceGap: 0 },
    ]);
    expect(await gauge(QUOTE_METRICS.relayerBalance)).toBe(0);

    // The chain mined nonces 0 and 1; the relayer handed out up to 5 (next 6). Nonce 2 is pending
    // for ten minutes (stuck), 3 for a few seconds; 4 and 5 belong to nobody pending: a gap of 2.
    await net.rpc.call('anvil_setBalance', [relayer, '0x14d1120d7b160000']); // 1.5 ether
    await net.rpc.call('anvil_setNonce', [relayer, '0x2']);
    await submission(1, 'mined', 900);
    await submission(2, 'pending', 600);
    await submission(3, 'pending', 5);
    await submission(4, 'dropped', 4);
    await pool.query(`INSERT INTO relayer_nonces (network, relayer, next_nonce) VALUES ('ethereum', $1, 6)`, [relayer]);

    const [s] = await monitor.sample();
    expect(s).toMatchObject({ balanceWei: 1_500_000_000_000_000_000n, pending: 2, stuck: 1, nonceGap: 2 });
    expect(s!.oldestPendingSeconds).toBeGreaterThanOrEqual(600);
    expect(s!.oldestPendingSeconds).toBeLessThan(700);
    expect(await gauge(QUOTE_METRICS.relayerBalance)).toBe(1.5);
    expect(await gauge(QUOTE_METRICS.relayPending)).toBe(2);
    expect(await gauge(QUOTE_METRICS.relayStuck)).toBe(1);
    expect(await gauge(QUOTE_METRICS.nonceGap)).toBe(2);
    expect(await gauge(QUOTE_METRICS.relayOldestPending)).toBeGreaterThanOrEqual(600);

    // The chain catches up past every stored nonce: no gap left, whatever is still pending.
    await net.rpc.call('anvil_setNonce', [relayer, '0x6']);
    const [after] = await monitor.sample();
    expect(after!.nonceGap).toBe(0);
    expect(await gauge(QUOTE_METRICS.nonceGap)).toBe(0);
  });

  it('counts a failed sample and keeps the last values', async () => {
    const errors = async (): Promise<number> => (await gauge(QUOTE_METRICS.relayMonitorErrors)) ?? 0;
    const before = await errors();
    const broken: RelayNetwork = { ...net, rpc: new JsonRpcClient('http://127.0.0.1:1') };
    const logged: string[] = [];
    expect(
      await new RelayMonitor(pool, new Map([['ethereum', broken]]), { stuckAfterMs: 60_000, intervalMs: 60_000 }, (m) =>
        logged.push(m),
      ).sample(),
    ).toEqual([]);
    expect(await errors()).toBe(before + 1);
    expect(logged).toEqual([expect.stringMatching(/^relay metrics ethereum: /)]);
    expect(await gauge(QUOTE_METRICS.relayerBalance)).toBe(1.5);
  });
});
