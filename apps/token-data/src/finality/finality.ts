import { ErrorCode, type BlockLabel } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';

/**
 * Which block the data endpoints answer as of (issue 23): `latest` (the default) is each network's
 * indexer cursor, the newest applied block; `finalized` is its finalized block (the cursor minus
 * the network's finality depth, `index_cursors.finalized_block`), whose figures a reorg shallower
 * than that depth cannot change.
 */
export type Finality = 'latest' | 'finalized';
export const FINALITIES: readonly Finality[] = ['latest', 'finalized'];

/** The request's finality; absent or empty means `latest`. The gateway has validated it already: anything else is a 400 here too. */
export function finalityOf(value: string | undefined): Finality {
  if (value === undefined || value === '' || value === 'latest') return 'latest';
  if (value === 'finalized') return 'finalized';
  throw new ServiceError(
    ErrorCode.ERROR_CODE_BAD_REQUEST,
    `finality must be one of ${FINALITIES.join(', ')} (got ${JSON.stringify(value)})`,
  );
}

/**
 * SQL expressions over `index_cursors c` for the block an answer is as of. `balances`: the balances'
 * own block while a backfill holds their changes in memory (`balances_block`), else the cursor.
 * A finalized answer about balances is as of the lower of that block and the finalized block.
 */
export function asOfBlockSql(finality: Finality, balances = false): string {
  const latest = balances ? 'coalesce(c.balances_block, c.block_number)' : 'c.block_number';
  return finality === 'latest' ? latest : `LEAST(c.finalized_block, ${latest})`;
}

/**
 * The label columns (`label_number`, `label_hash`, `label_final`) of the block `block` (an SQL
 * expression over `index_cursors c`): the hash from the cursor or the finalized block when it is
 * one of them, else from `blocks` (NULL when that header is not stored).
 */
export function labelColumnsSql(block: string): string {
  return `(${block})::text AS label_number,
    CASE WHEN (${block}) = c.block_number THEN c.block_hash WHEN (${block}) = c.finalized_block AND c.finalized_hash IS NOT NULL THEN c.finalized_hash
         ELSE (SELECT lb.hash FROM blocks lb WHERE lb.network = c.network AND lb.number = (${block})) END AS label_hash,
    ((${block}) <= c.finalized_block) AS label_final`;
}

export interface LabelColumns {
  label_number: string | null;
  label_hash: string | null;
  label_final: boolean | null;
}

/** The BlockLabel of a row read with labelColumnsSql (a network without a cursor: block 0, not final). */
export function toLabel(network: string, row: LabelColumns): BlockLabel {
  return { network, number: row.label_number ?? '0', hash: row.label_hash ?? undefined, final: row.label_final === true };
}

/** One label per network, from rows that carry their network and label columns. */
export function labelsByNetwork(rows: ReadonlyArray<LabelColumns & { network: string }>): BlockLabel[] {
  const out = new Map<string, BlockLabel>();
  for (const r of rows) if (!out.has(r.network)) out.set(r.network, toLabel(r.network, r));
  return [...out.values()];
}

/** The public JSON of a label: `{"number":…,"hash":…|null,"final":…}` (numbers as JSON numbers). */
export function labelJson(label: BlockLabel | undefined): { number: number; hash: string | null; final: boolean } {
  return { number: Number(label?.number ?? 0), hash: label?.hash ?? null, final: label?.final === true };
}
