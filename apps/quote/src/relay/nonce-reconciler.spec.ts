import type { PoolClient } from 'pg';
import { observeChain, reconcileLocked, type ChainView } from './nonce-reconciler';
import type { RelayNetwork } from './relay-types';

const RELAYER = '0x00000000000000000000000000000000000000aa';

/** A network whose node answers the relayer's mined count from `counts`, one per call. */
function network(counts: number[]): RelayNetwork & { calls: number } {
  const n = {
    network: 'ethereum',
    chainId: 1,
    router: '0x00000000000000000000000000000000000000bb',
    calls: 0,
    rpc: {
      call: async (method: string) => {
        expect(method).toBe('eth_getTransactionCount');
        return `0x${counts[Math.min(n.calls++, counts.length - 1)]!.toString(16)}`;
      },
    },
  };
  return n as unknown as RelayNetwork & { calls: number };
}

/** A client whose submission rows are `rows` and stored next nonce `stored`; records every other statement. */
function client(
  rows: Array<{ order_id: string; nonce: string; state: string }>,
  stored: bigint,
): Pick<PoolClient, 'query'> & { writes: Array<{ sql: string; params: unknown[] }> } {
  const writes: Array<{ sql: string; params: unknown[] }> = [];
  const query = async (sql: string, params: unknown[]) => {
    if (sql.startsWith('SELECT order_id, nonce, state FROM relay_submissions'))
      return { rows: rows.filter((r) => BigInt(r.nonce) >= BigInt(params[2] as string)) };
    if (sql.startsWith('SELECT next_nonce FROM relayer_nonces')) return { rows: [{ next_nonce: stored.toString() }] };
    writes.push({ sql, params });
    return { rows: [] };
  };
  return { query, writes } as unknown as Pick<PoolClient, 'query'> & { writes: Array<{ sql: string; params: unknown[] }> };
}

/** The chain observed (RPC, no transaction), then reconciled under the lock, which makes no RPC call. */
async function reconcile(db: ReturnType<typeof client>, net: ReturnType<typeof network>, stored: bigint): Promise<unknown> {
  const seen = await observeChain(db, net, RELAYER);
  const calls = net.calls;
  const r = await reconcileLocked(db, net, RELAYER, stored, seen);
  expect(net.calls).toBe(calls);
  return r;
}

describe('relayer nonce reconciliation', () => {
  it('takes the chain count when the stored nonce is behind it', async () => {
    const db = client([], 7n);
    expect(await reconcile(db, network([9]), 7n)).toEqual({ next: 9n, reopened: [], holes: [] });
    expect(db.writes).toEqual([]);
  });

  it('changes nothing while every nonce above the chain belongs to a pending order (transactions in flight)', async () => {
    const db = client(
      [
        { order_id: 'a', nonce: '4', state: 'pending' },
        { order_id: 'b', nonce: '5', state: 'pending' },
      ],
      6n,
    );
    expect(await reconcile(db, network([4]), 6n)).toEqual({ next: 6n, reopened: [], holes: [] });
    expect(db.writes).toEqual([]);
  });

  it('a chain that lost transactions: final orders above its count reopened, a nonce nobody holds filled, the counter back to the highest held', async () => {
    const db = client(
      [
        { order_id: 'a', nonce: '2', state: 'mined' },
        { order_id: 'b', nonce: '4', state: 'reverted' },
        { order_id: 'c', nonce: '5', state: 'pending' },
      ],
      9n,
    );
    expect(await reconcile(db, network([2, 2]), 9n)).toEqual({ next: 6n, reopened: ['a', 'b'], holes: [3n] });
    // Transactions signed after the mined one (never mined anywhere) dropped first, so the mined one is sent again.
    expect(db.writes.map((w) => w.sql.split(' ').slice(0, 3).join(' '))).toEqual([
      'DELETE FROM relay_transactions',
      'UPDATE relay_submissions SET',
      'UPDATE relay_transactions SET',
      'UPDATE relayer_nonces SET',
    ]);
    expect(db.writes[0]!.sql).toMatch(/t\.attempt > m\.attempt/);
    expect(db.writes[0]!.params).toEqual([['a', 'b']]);
    expect(db.writes[1]!.params).toEqual([['a', 'b']]);
    expect(db.writes[3]!.params).toEqual(['ethereum', RELAYER, '6']);
  });

  it('reopens nothing when the chain moved while it read (an order mined and recorded final in between is not lost)', async () => {
    // Count 4 read before c's transaction was mined; the rows read after it was recorded final.
    const db = client(
      [
        { order_id: 'c', nonce: '4', state: 'reverted' },
        { order_id: 'd', nonce: '5', state: 'pending' },
      ],
      6n,
    );
    expect(await reconcile(db, network([4, 5]), 6n)).toEqual({ next: 6n, reopened: [], holes: [] });
    expect(db.writes).toEqual([]);
  });

  it('reopens nothing when the rows changed between the observation and the lock (left for the next reconciliation)', async () => {
    const seen: ChainView = { count: 2n, above: { rows: [{ order_id: 'a', nonce: '2', state: 'mined' }], again: 2n } };
    // Meanwhile another submission took nonce 3 (pending): what was observed no longer describes the rows.
    const db = client(
      [
        { order_id: 'a', nonce: '2', state: 'mined' },
        { order_id: 'e', nonce: '3', state: 'pending' },
      ],
      4n,
    );
    expect(await reconcileLocked(db, network([]), RELAYER, 4n, seen)).toEqual({ next: 4n, reopened: [], holes: [] });
    expect(db.writes).toEqual([]);
  });
});
