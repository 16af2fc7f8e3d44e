import { createHash } from 'node:crypto';
import type { Network } from '@tokensvc/domain';
import type { SqlTx } from '../model/sql-tx';

/** Another replica holds the network's lease now: this one must stop writing. */
export class LeaseLostError extends Error {}

/**
 * One active writer per network: a row with a holder and an expiry. Taking it succeeds when it is
 * free, expired, or already ours; renewing fails once someone else took it over.
 *
 * Locks: every write transaction of the holder holds the row FOR KEY SHARE (fenceWriteTx), which
 * the renewal (a plain UPDATE of a non-key column) does not wait for, so the holder keeps its lease
 * renewed however long its batches take. Taking the lease locks the row FOR UPDATE first, which
 * waits for those transactions: a new holder never overlaps with a transaction of the old one.
 * Call it inside a transaction (the lock is held until its end).
 */
export async function tryAcquireLease(q: SqlTx, network: Network, holder: string, ttlMs: number): Promise<boolean> {
  const [row] = await q.query<{ holder: string; expired: boolean }>(
    `SELECT holder, expires_at < clock_timestamp() AS expired FROM indexer_leases WHERE network = $1 FOR UPDATE`,
    [network],
  );
  if (!row) {
    const inserted = await q.query(
      `INSERT INTO indexer_leases (network, holder, expires_at) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond') ON CONFLICT (network) DO NOTHING RETURNING holder`,
      [network, holder, ttlMs],
    );
    return inserted.length === 1;
  }
  if (row.holder !== holder && !row.expired) return false;
  await q.query(
    `UPDATE indexer_leases SET holder = $2, expires_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE network = $1`,
    [network, holder, ttlMs],
  );
  return true;
}

export async function renewLease(q: SqlTx, network: Network, holder: string, ttlMs: number): Promise<boolean> {
  const rows = await q.query(
    `UPDATE indexer_leases SET expires_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE network = $1 AND holder = $2 RETURNING holder`,
    [network, holder, ttlMs],
  );
  return rows.length === 1;
}

export async function releaseLease(q: SqlTx, network: Network, holder: string): Promise<void> {
  await q.query(`DELETE FROM indexer_leases WHERE network = $1 AND holder = $2`, [network, holder]);
}

export interface LeaseState {
  holder: string;
  /** until it expires, by the database's clock (<= 0: expired) */
  remainingMs: number;
}

/** The committed lease row (a plain read: it never waits for a writer's transaction). */
export async function readLease(q: SqlTx, network: Network): Promise<LeaseState | undefined> {
  const [r] = await q.query<{ holder: string; remaining_ms: number }>(
    `SELECT holder, floor(extract(epoch FROM expires_at - clock_timestamp()) * 1000)::int AS remaining_ms FROM indexer_leases WHERE network = $1`,
    [network],
  );
  return r && { holder: r.holder, remainingMs: r.remaining_ms };
}

/**
 * The application_name a lease holder's write transactions carry (SET LOCAL): a standby that
 * finds the lease expired while its row is still locked ends exactly these transactions
 * (endStalledWriter). Short enough for Postgres' 63 bytes whatever the instance id.
 */
export function writerTag(network: Network, holder: string): string {
  return `indexer-writer:${network}:${createHash('sha256').update(holder).digest('hex').slice(0, 16)}`;
}

/**
 * Fencing, as the first statement of every write transaction of the holder: tags the session
 * (writerTag) and checks that the lease is still ours, locking its row FOR KEY SHARE until commit
 * (no one can take it meanwhile; see tryAcquireLease). False when another replica holds it now:
 * the transaction must then roll back.
 */
export async function fenceWriteTx(tx: SqlTx, network: Network, holder: string): Promise<boolean> {
  const rows = await tx.query(
    `SELECT set_config('application_name', $3, true) FROM indexer_leases WHERE network = $1 AND holder = $2 FOR KEY SHARE`,
    [network, holder, writerTag(network, holder)],
  );
  return rows.length === 1;
}

/**
 * Ends the open transactions of a holder whose lease expired (a paused or cut-off process keeps
 * its transaction, and the lock on the lease row, until its connection goes): their writes roll
 * back and the lease can be taken. Returns how many were ended.
 */
export async function endStalledWriter(q: SqlTx, network: Network, holder: string): Promise<number> {
  const [r] = await q.query<{ n: number }>(
    `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = $1 AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`,
    [writerTag(network, holder)],
  );
  return r?.n ?? 0;
}

/**
 * The second fence of a batch: the network's cursor is still at `block` (the one the batch
 * follows). Locks the cursor row until commit, so it cannot move underneath.
 */
export async function cursorStillAt(tx: SqlTx, network: Network, block: number): Promise<boolean> {
  const rows = await tx.query(`SELECT 1 FROM index_cursors WHERE network = $1 AND block_number = $2 FOR UPDATE`, [network, block]);
  return rows.length === 1;
}
