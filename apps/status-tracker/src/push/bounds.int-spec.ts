/**
 * The per-order bounds of issue 16 under concurrency, on a real Postgres (no chain needed): many
 * registrations of one order's webhooks, and many status requests creating one order's tracking
 * rows, each raced through a pool of 20 connections, never leave more than the bound. (A bare
 * `INSERT ... WHERE (SELECT count(*)) < n` does: each statement counts without the rows the
 * others have not committed yet.) And a webhook is only deleted or replaced by its owner.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import { CrossChainOrderStore, type NewCrossChainOrder } from '../tracking/cross-chain-order-store';
import { StatusEventStore } from './status-event-store';

jest.setTimeout(120_000);

const ROUNDS = 10;
const CONCURRENT = 40;
const hash = (): string => `0x${randomBytes(32).toString('hex')}`;
const order = (orderId: string, txHash: string): NewCrossChainOrder => ({
  orderId,
  txHash,
  provider: 'across',
  fromNetwork: 'ethereum',
  fromChainId: 1,
  toNetwork: 'base',
  toChainId: 8453,
});

describe('per-order bounds under concurrency (Postgres)', () => {
  const url = createTestDatabaseUrl('status_bounds');
  let pool: Pool;
  let orders: CrossChainOrderStore;
  let events: StatusEventStore;

  beforeAll(async () => {
    await migrate(url);
    pool = new Pool({ connectionString: url, max: 20 });
    orders = new CrossChainOrderStore(pool);
    events = new StatusEventStore(pool);
  });

  afterAll(async () => {
    await pool?.end();
    await dropDatabase(url);
  });

  const count = async (table: string, orderId: string): Promise<number> =>
    Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE order_id = $1`, [orderId])).rows[0]!.n);

  it(`webhooks: ${ROUNDS} rounds of ${CONCURRENT} concurrent registrations of one order with a bound of 5 leave exactly 5`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const orderId = randomUUID();
      const txHash = hash();
      await orders.createBounded(order(orderId, txHash), 4);
      const out = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) =>
          events.insertWebhook(
            { id: randomUUID(), owner: `key:${i % 4}`, orderId, txHash, url: `https://hooks.example.com/${i}`, secret: 'whsec_x' },
            5,
          ),
        ),
      );
      expect([round, out.filter((w) => typeof w !== 'string').length, out.filter((w) => w === 'full').length]).toEqual([
        round,
        5,
        CONCURRENT - 5,
      ]);
      expect(await count('webhooks', orderId)).toBe(5);
    }
  });

  it(`tracking rows: ${ROUNDS} rounds of ${CONCURRENT} concurrent transactions of one order with a bound of 4 leave exactly 4`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const orderId = randomUUID();
      const out = await Promise.all(Array.from({ length: CONCURRENT }, () => orders.createBounded(order(orderId, hash()), 4)));
      expect([round, out.filter((o) => 'row' in o).length]).toEqual([round, 4]);
      expect(await count('cross_chain_orders', orderId)).toBe(4);
    }
  });

  it('without a quote: one transaction gets one row however many order ids race for it', async () => {
    const txHash = hash();
    const ids = Array.from({ length: CONCURRENT }, () => randomUUID());
    const out = await Promise.all(ids.map((id) => orders.createBounded(order(id, txHash), 4, { txUnclaimed: true })));
    expect(out.filter((o) => 'row' in o)).toHaveLength(1);
    expect(out.filter((o) => 'refused' in o && o.refused === 'tx-taken')).toHaveLength(CONCURRENT - 1);
    expect(
      Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM cross_chain_orders WHERE tx_hash = $1`, [txHash])).rows[0]!.n),
    ).toBe(1);
  });

  it('a status request racing the bridge follower for the same (order, tx) gets the one row, no error', async () => {
    for (let round = 0; round < 30; round++) {
      const o = order(randomUUID(), hash());
      // The follower inserts without the status request's locks (ON CONFLICT DO NOTHING).
      const [, created] = await Promise.all([orders.createMany([o]), orders.createBounded(o, 4)]);
      expect('row' in created && created.row.txHash).toBe(o.txHash);
      expect(await count('cross_chain_orders', o.orderId)).toBe(1);
    }
  });

  it('a webhook is replaced or deleted only by its owner; a refused replacement keeps the old one', async () => {
    const orderId = randomUUID();
    const txHash = hash();
    await orders.createBounded(order(orderId, txHash), 4);
    const hook = await events.insertWebhook(
      { id: randomUUID(), owner: 'key:a', orderId, txHash, url: 'https://hooks.example.com/a', secret: 'whsec_a' },
      2,
    );
    if (typeof hook === 'string') throw new Error(`not created: ${hook}`);
    expect(
      await events.insertWebhook(
        { id: randomUUID(), owner: 'key:b', orderId, txHash, url: 'https://hooks.example.com/b', secret: 'whsec_b', replaces: hook.id },
        2,
      ),
    ).toBe('not-found');
    expect(await events.deleteOwnedWebhook('key:b', hook.id)).toBe(false);
    expect(await events.deleteOwnedWebhook('ip:127.0.0.1', hook.id)).toBe(false);
    expect((await events.ownedWebhooks('key:b', orderId, txHash)).map((w) => w.id)).toEqual([]);
    expect((await events.ownedWebhooks('key:a', orderId, txHash)).map((w) => w.id)).toEqual([hook.id]);
    // Full (2 of 2): a new one is refused, a replacement by the owner is not.
    const second = await events.insertWebhook(
      { id: randomUUID(), owner: 'key:b', orderId, txHash, url: 'https://hooks.example.com/b', secret: 'whsec_b' },
      2,
    );
    expect(typeof second).not.toBe('string');
    expect(
      await events.insertWebhook(
        { id: randomUUID(), owner: 'key:a', orderId, txHash, url: 'https://hooks.example.com/a3', secret: 'whsec_a' },
        2,
      ),
    ).toBe('full');
    const replaced = await events.insertWebhook(
      { id: randomUUID(), owner: 'key:a', orderId, txHash, url: 'https://hooks.example.com/a2', secret: 'whsec_a', replaces: hook.id },
      2,
    );
    expect(typeof replaced).not.toBe('string');
    expect((await events.ownedWebhooks('key:a', orderId, txHash)).map((w) => w.url)).toEqual(['https://hooks.example.com/a2']);
    expect(await events.deleteOwnedWebhook('key:a', (replaced as { id: string }).id)).toBe(true);
    expect(await count('webhooks', orderId)).toBe(1);
  });
});
