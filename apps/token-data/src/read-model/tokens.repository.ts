import { DataSource } from 'typeorm';
import type { BlockLabel, ListTokensRequest } from '@tokensvc/messages';
import { labelColumnsSql, labelsByNetwork, type Finality, type LabelColumns } from '../finality/finality';
import { tokensAsOfFinalizedSql } from '../finality/tokens-as-of';
import { TOKEN_COLUMNS, type TokenRow } from './token-row';
import { buildTokensQuery } from './tokens.query';

export interface TokenPage {
  total: number;
  rows: TokenRow[];
  /** the block each network's rows are as of (read in the page's statement) */
  blocks: BlockLabel[];
}

export interface BoundSql {
  text: string;
  params: unknown[];
}

/**
 * The two statements of one /v2/tokens page. The page is a deferred join: the inner query walks
 * the sort index (covering the filter columns, see migration 1764000000000) to skip `offset`
 * entries without touching the wide rows, and only the `limit` rows found are read in full. The
 * total is a separate count over the same filter (no window over every matching wide row).
 */
export function tokensListSql(
  req: ListTokensRequest,
  limit: number,
  offset: number,
  finality: Finality = 'latest',
): { page: BoundSql; count: BoundSql } {
  const q = buildTokensQuery(req);
  const n = q.params.length;
  if (finality === 'finalized') {
    // the filters and sorts apply to the figures as of the finalized block (finality/tokens-as-of.ts)
    const asOf = tokensAsOfFinalizedSql();
    return {
      page: {
        text: `SELECT ${TOKEN_COLUMNS}, ${labelColumnsSql('c.finalized_block')} FROM ${asOf} t JOIN index_cursors c ON c.network = t.network
          WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
        params: [...q.params, limit, offset],
      },
      count: { text: `SELECT count(*)::int AS total FROM ${asOf} t WHERE ${q.where}`, params: q.params },
    };
  }
  return {
    page: {
      text: `SELECT ${TOKEN_COLUMNS}, ${labelColumnsSql('c.block_number')} FROM (SELECT t.key FROM tokens t WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}) p
        JOIN tokens t ON t.key = p.key LEFT JOIN index_cursors c ON c.network = t.network ORDER BY ${q.orderBy}`,
      params: [...q.params, limit, offset],
    },
    count: { text: `SELECT count(*)::int AS total FROM tokens t WHERE ${q.where}`, params: q.params },
  };
}

/** Reads of the `tokens` read model. */
export class TokensRepository {
  constructor(private readonly ds: DataSource) {}

  async list(req: ListTokensRequest, limit: number, offset: number, finality: Finality = 'latest'): Promise<TokenPage> {
    const sql = tokensListSql(req, limit, offset, finality);
    const [rows, count] = await Promise.all([
      this.ds.query(sql.page.text, sql.page.params) as Promise<Array<TokenRow & LabelColumns>>,
      this.ds.query(sql.count.text, sql.count.params) as Promise<Array<{ total: number }>>,
    ]);
    return { total: count[0]?.total ?? 0, rows, blocks: labelsByNetwork(rows) };
  }

  async byKey(key: string): Promise<TokenRow | undefined> {
    const rows: TokenRow[] = await this.ds.query(`SELECT ${TOKEN_COLUMNS} FROM tokens t WHERE t.key = $1`, [key]);
    return rows[0];
  }

  async byKeys(keys: readonly string[]): Promise<TokenRow[]> {
    if (keys.length === 0) return [];
    return this.ds.query(`SELECT ${TOKEN_COLUMNS} FROM tokens t WHERE t.key = ANY($1::text[])`, [keys]);
  }
}
