import type { Network } from '@tokensvc/domain';
import type { SqlTx } from '../pipeline/derivation.port';

/**
 * One active writer per network: a row with a holder and an expiry. Taking it succeeds when it is
 * free, expired, or already ours; renewing fails once someone else took it over.
 */
export async function tryAcquireLease(q: SqlTx, network: Network, holder: string, ttlMs: number): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO indexer_leases (network, holder, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
     ON CONFLICT (network) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
     WHERE indexer_leases.expires_at < now() OR indexer_leases.holder = EXCLUDED.holder
     RETURNING holder`,
    [network, holder, ttlMs],
  );
  return rows.length === 1;
}

export async function renewLease(q: SqlTx, network: Network, holder: string, ttlMs: number): Promise<boolean> {
  const rows = await q.query(`UPDATE indexer_leases SET expires_at = now() + $3 * interval '1 millisecond' WHERE network = $1 AND holder = $2 RETURNING holder`, [network, holder, ttlMs]);
  return rows.length === 1;
}

export async function releaseLease(q: SqlTx, network: Network, holder: string): Promise<void> {
  await q.query(`DELETE FROM indexer_leases WHERE network = $1 AND holder = $2`, [network, holder]);
}
