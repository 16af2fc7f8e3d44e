/**
 * The order store's bound per client (issue 30): keyless quotes cannot fill the disk. Each client
 * keeps its newest orders up to its bound; older ones are evicted when it asks for more, except
 * orders that were submitted (relay_submissions) or are tracked cross-chain (cross_chain_orders).
 * Other clients, and orders built without a client, are untouched.
 */
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { encodeExecute, transferAllCall } from '@tokensvc/contracts';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import type { OrderReply } from '@tokensvc/messages';
import { OrderStore } from './order-store';

jest.setTimeout(60_000);

const TOKEN = '0x1000000000000000000000000000000000000001';
const USER = '0x2000000000000000000000000000000000000002';

function order(): { orderId: string; reply: OrderReply } {
  const orderId = randomUUID();
  const calls = [transferAllCall(TOKEN, USER)];
  const data = encodeExecute(
    {
      inputToken: TOKEN,
      inputAmount: 1n,
      outputToken: TOKEN,
      minOutputAmount: 1n,
      recipient: USER,
      partner: USER,
      feeBps: 0,
      deadline: 1n,
    },
    calls,
  );
  const reply = {
    context: { orderId },
    tx: { to: USER, from: USER, data, value: '0', gasLimit: '100000' },
    signedOrder: undefined,
  } as unknown as OrderReply;
  return { orderId, reply };
}

describe('OrderStore: bounded per client', () => {
  let databaseUrl: string;
  let pool: Pool;
  let store: OrderStore;
  let t = Date.now() - 3_600_000;

  async function save(client: string | undefined): Promise<string> {
    const o = order();
    t += 1_000; // one a second, so "oldest" is well defined
    await store.save({ ...o, network: 'ethereum', chainId: 1, sender: USER, client, expiresAt: new Date(t + 600_000) }, new Date(t));
    return o.orderId;
  }
  const kept = async (ids: readonly string[]): Promise<string[]> =>
    (await pool.query<{ order_id: string }>(`SELECT order_id FROM orders WHERE order_id = ANY($1)`, [ids])).rows
      .map((r) => r.order_id)
      .sort();

  beforeAll(async () => {
    databaseUrl = createTestDatabaseUrl('order_store_bound');
    await migrate(databaseUrl);
    pool = new Pool({ connectionString: databaseUrl, max: 2 });
    store = new OrderStore(pool, { maxPerClient: 5, maxPerAnonymousClient: 3 });
  });

  afterAll(async () => {
    await pool?.end();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  it('keeps an anonymous client to its newest orders, and a keyed client to its own bound', async () => {
    const anon = [];
    for (let i = 0; i < 10; i++) anon.push(await save('ip:203.0.113.7'));
    expect(await kept(anon)).toEqual(anon.slice(-3).sort());
    const keyed = [];
    for (let i = 0; i < 10; i++) keyed.push(await save('key:k1'));
    expect(await kept(keyed)).toEqual(keyed.slice(-5).sort());
    // the anonymous client's orders were not touched by the other client's
    expect(await kept(anon)).toEqual(anon.slice(-3).sort());
    // the newest order reads back with its calls (from the stored transaction)
    const newest = (await store.find(keyed[9]!))!;
    expect(newest.calls.map((c) => c.target)).toEqual([TOKEN]);
  });

  it('never evicts a submitted or tracked order, nor one built without a client', async () => {
    const client = 'ip:2001:db8:1:2::/64';
    const submitted = await save(client);
    const tracked = await save(client);
    const internal = await save(undefined);
    await pool.query(
      `INSERT INTO relay_submissions (order_id, network, sender, signature, relayer, nonce, state) VALUES ($1, 'ethereum', $2, '0x', $2, 0, 'pending')`,
      [submitted, USER],
    );
    await pool.query(
      `INSERT INTO cross_chain_orders (order_id, tx_hash, status, provider, from_network, from_chain_id) VALUES ($1, $2, 'PENDING', 'across', 'ethereum', 1)`,
      [tracked, `0x${'ab'.repeat(32)}`],
    );
    const later = [];
    for (let i = 0; i < 8; i++) later.push(await save(client));
    expect(await kept([submitted, tracked, internal])).toEqual([submitted, tracked, internal].sort());
    expect(await kept(later)).toEqual(later.slice(-3).sort());
    // a week of keyless quotes at the no-key limit (100 a minute) leaves this client 3 open orders, not a million
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE client = $1`, [client]);
    expect(rows[0]!.n).toBe(3 + 2);
  });
});
