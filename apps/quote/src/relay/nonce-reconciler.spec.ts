import type { PoolClient } from 'pg';
import { reconcileLocked } from './nonce-reconciler';
import type { RelayNetwork } from './relayer';

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

/** A client whose submission rows are `rows`; records every other statement. */
function client(rows: Array<{ order_id: string; nonce: string; state: string }>): Pick<PoolClient, 'query'> & { writes: Array<{ sql: string; params: unknown[] }> } {
  const writes: Array<{ sql: string; params: unknown[] }> = [];
  const query = async (sql: string, params: unknown[]) => {
    if (sql.startsWith('SELECT order_id, nonce, state FROM relay_submissions')) return { rows: rows.filter((r) => BigInt(r.nonce) >= BigInt(params[2] as string)) };
    writes.push({ sql, params });
    return { rows: [] };
  };
  return { query, writes } as unknown as Pick<PoolClient, 'query'> & { writes: Array<{ sql: string; params: unknown[] }> };
}

describe('relayer nonce reconciliation', () => {
  it('takes the chain count when the stored nonce is behind it', async () => {
    const db = client([]);
    expect(await reconcileLocked(db, network([9]), RELAYER, 7n)).toEqual({ next: 9n, reopened: [], holes: [] });
    expect(db.writes).toEqual([]);
  });

  it('changes nothing while every nonce above the chain belongs to a pending order (transactions in flight)', async () => {
    const db = client([{ order_id: 'a', nonce: '4', state: 'pending' }, { order_id: 'b', nonce: '5', state: 'pending' }]);
    expect(await reconcileLocked(db, network([4]), RELAYER, 6n)).toEqual({ next: 6n, reopened: [], holes: [] });
    expect(db.writes).toEqual([]);
  });

  it('a chain that lost transactions: final orders above its count reopened, a nonce nobody holds filled, the counter back to the highest held', async () => {
    const db = client([
      { order_id: 'a', nonce: '2', state: 'mined' },
      { order_id: 'b', nonce: '4', state: 'reverted' },
      { order_id: 'c', nonce: '5', state: 'pending' },
    ]);
    expect(await reconcileLocked(db, network([2, 2]), RELAYER, 9n)).toEqual({ next: 6n, reopened: ['a', 'b'], holes: [3n] });
    expect(db.writes.map((w) => w.sql.split(' ').slice(0, 2).join(' '))).toEqual(['UPDATE relay_submissions', 'UPDATE relay_transactions', 'UPDATE relayer_nonces']);
    expect(db.writes[0]!.params).toEqual([['a', 'b']]);
    expect(db.writes[2]!.params).toEqual(['ethereum', RELAYER, '6']);
  });

  it('reopens nothing when the chain moved while it read (an order mined and recorded final in between is not lost)', async () => {
    // Count 4 read before c's transaction was mined; the rows read after it was recorded final.
    const db = client([{ order_id: 'c', nonce: '4', state: 'reverted' }, { order_id: 'd', nonce: '5', state: 'pending' }]);
    expect(await reconcileLocked(db, network([4, 5]), RELAYER, 6n)).toEqual({ next: 6n, reopened: [], holes: [] });
    expect(db.writes).toEqual([]);
  });
});
