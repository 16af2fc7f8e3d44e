/**
 * Balances as of a network's finalized block F (issue 23). `balances` holds one row per (token,
 * holder) at the balances' block B (the cursor, or `balances_block` while a backfill holds changes
 * in memory), and `transfers` keeps every Transfer with its block (a BRIN index on
 * (network, block_number) finds the last blocks' cheaply). The balance at F is the row's balance
 * minus the net of its transfers in (F, B]: the window above F is at most the finality depth, so
 * this reads a few blocks of transfers, and no per-block balance copies are stored. A finalized
 * answer is as of LEAST(F, B), which is final either way.
 */

/** index_cursors `c` with `f` (the answer's block) and `base` (the balances' block) */
const POSITION = `LEAST(c.finalized_block, coalesce(c.balances_block, c.block_number)) AS f, coalesce(c.balances_block, c.block_number) AS base`;

/**
 * An owner's positive balances as of F: `$1` owner (lowercase), `$2` networks, `$3` limit.
 * Rows: key, network, raw_balance. Holders whose balance is 0 now but was not at F come from the
 * window's transfers (PK lookups); the rest from the partial holder index.
 */
export const HELD_AS_OF_FINALIZED_SQL = `WITH c0 AS (SELECT c.network, ${POSITION} FROM index_cursors c WHERE c.network = ANY($2::text[])),
  d AS (SELECT tr.network, tr.token, sum(CASE WHEN tr.to_address = $1 THEN tr.value ELSE 0 END) - sum(CASE WHEN tr.from_address = $1 THEN tr.value ELSE 0 END) AS v
          FROM transfers tr JOIN c0 ON c0.network = tr.network
         WHERE tr.block_number > c0.f AND tr.block_number <= c0.base AND (tr.to_address = $1 OR tr.from_address = $1) GROUP BY tr.network, tr.token),
  cand AS (SELECT b.network, b.token, b.balance FROM balances b WHERE b.holder = $1 AND b.network = ANY($2::text[]) AND b.balance > 0
           UNION SELECT b.network, b.token, b.balance FROM balances b JOIN d ON d.network = b.network AND d.token = b.token WHERE b.holder = $1)
  SELECT t.key, t.network, (cand.balance - coalesce(d.v, 0))::text AS raw_balance
    FROM cand JOIN tokens t ON t.network = cand.network AND t.address = cand.token JOIN c0 ON c0.network = cand.network
    LEFT JOIN d ON d.network = cand.network AND d.token = cand.token
   WHERE cand.balance - coalesce(d.v, 0) > 0 AND t.created_block <= c0.f
   ORDER BY t.network, t.key LIMIT $3`;

/**
 * One token's positive balances as of F, largest first: `$1` network, `$2` token address,
 * `$3` limit, `$4` offset. Rows: holder, balance, total (holders with a positive balance at F).
 */
export const HOLDERS_AS_OF_FINALIZED_SQL = `WITH c0 AS (SELECT ${POSITION} FROM index_cursors c WHERE c.network = $1),
  d AS (SELECT x.holder, sum(x.v) AS v FROM (
          SELECT tr.to_address AS holder, tr.value AS v FROM transfers tr, c0 WHERE tr.network = $1 AND tr.token = $2 AND tr.block_number > c0.f AND tr.block_number <= c0.base
          UNION ALL
          SELECT tr.from_address, -tr.value FROM transfers tr, c0 WHERE tr.network = $1 AND tr.token = $2 AND tr.block_number > c0.f AND tr.block_number <= c0.base) x
        GROUP BY x.holder),
  cand AS (SELECT b.holder, b.balance - coalesce(d.v, 0) AS balance FROM balances b LEFT JOIN d ON d.holder = b.holder
            WHERE b.network = $1 AND b.token = $2 AND b.balance > 0
           UNION ALL
           SELECT b.holder, b.balance - d.v FROM balances b JOIN d ON d.holder = b.holder WHERE b.network = $1 AND b.token = $2 AND b.balance <= 0)
  SELECT cand.holder, cand.balance::text AS balance, count(*) OVER () AS total FROM cand WHERE cand.balance > 0
   ORDER BY cand.balance DESC, cand.holder LIMIT $3 OFFSET $4`;
