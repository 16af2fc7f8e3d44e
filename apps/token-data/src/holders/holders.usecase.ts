import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { toUnits } from '@tokensvc/domain';
import { ErrorCode, type TokenHoldersReply, type TokenHoldersRequest } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import { HOLDERS_AS_OF_FINALIZED_SQL } from '../finality/balances-as-of';
import { asOfBlockSql, finalityOf, labelColumnsSql, toLabel, type LabelColumns } from '../finality/finality';
import { tokensAsOfFinalizedSql } from '../finality/tokens-as-of';
import { TOKEN_COLUMNS, type TokenRow } from '../read-model/token-row';
import { requireToken } from '../read-model/token-lookup';
import { TokensRepository } from '../read-model/tokens.repository';

export const DEFAULT_HOLDERS_LIMIT = 100;
/**
 * Holders are listed down to this rank (issue 16): an OFFSET makes Postgres walk every row before
 * it, so `page` up to 1,000,000 would let one request sort a token's whole balance table. A page
 * starting at or past it is 400.
 */
export const MAX_HOLDERS_OFFSET = 10_000;

/**
 * GET /v2/tokens/holders: balances from the indexer's Transfer-derived `balances`, largest first.
 * `percentage` is the share of the total supply (0..100). The native token has no Transfer events:
 * its holder list is empty. The page is labelled with the block its balances are as of (the
 * cursor, or the balances' block during a backfill); `finality=finalized` answers as of the
 * finalized block (finality/balances-as-of.ts), with the token's supply and price as of it too.
 * Label and balances are read in one REPEATABLE READ snapshot, so they agree. A token whose
 * history is partial (tokens.history_from_block) has balances that are net transfers since that
 * block; the reply carries the block (historyFromBlock) so a client can tell.
 */
@Injectable()
export class TokenHoldersUseCase {
  private readonly tokens: TokensRepository;
  constructor(private readonly ds: DataSource) {
    this.tokens = new TokensRepository(ds);
  }

  async execute(req: TokenHoldersRequest): Promise<TokenHoldersReply> {
    const limit = req.limit > 0 ? req.limit : DEFAULT_HOLDERS_LIMIT;
    const page = Math.max(0, req.page);
    // before any read: a refused page costs nothing
    if (page * limit >= MAX_HOLDERS_OFFSET) {
      throw new ServiceError(
        ErrorCode.ERROR_CODE_BAD_REQUEST,
        `page × limit must stay below ${MAX_HOLDERS_OFFSET}: holders are listed down to rank ${MAX_HOLDERS_OFFSET} (page ${page} of ${limit} starts at ${page * limit})`,
      );
    }
    const finality = finalityOf(req.finality);
    const found = await requireToken(this.tokens, req.id);
    const { token, rows, total, label } = await this.ds.transaction('REPEATABLE READ', async (m) => {
      const [position] = (await m.query(
        `SELECT ${labelColumnsSql(asOfBlockSql(finality, true))} FROM index_cursors c WHERE c.network = $1`,
        [found.network],
      )) as LabelColumns[];
      let asOf: TokenRow = found;
      if (finality === 'finalized') {
        const [row] = (await m.query(`SELECT ${TOKEN_COLUMNS} FROM ${tokensAsOfFinalizedSql('t.key = $1')} t`, [found.key])) as TokenRow[];
        if (!row)
          throw new ServiceError(
            ErrorCode.ERROR_CODE_NOT_FOUND,
            `token ${found.key} was first seen above the finalized block of ${found.network}; ask with finality=latest`,
          );
        asOf = row;
      }
      const pageRows: Array<{ holder: string; balance: string; total: string }> = await m.query(
        finality === 'finalized'
          ? HOLDERS_AS_OF_FINALIZED_SQL
          : // ORDER BY names the table column: a bare \`balance\` would sort by the text output column
            `SELECT b.holder, b.balance::text AS balance, count(*) OVER () AS total FROM balances b
              WHERE b.network = $1 AND b.token = $2 AND b.balance > 0
              ORDER BY b.balance DESC, b.holder LIMIT $3 OFFSET $4`,
        [found.network, found.address, limit, page * limit],
      );
      let n: number;
      if (pageRows.length > 0) n = Number(pageRows[0]!.total);
      else if (finality === 'finalized') {
        // a page past the end: the count from the first row
        const [first] = (await m.query(HOLDERS_AS_OF_FINALIZED_SQL, [found.network, found.address, 1, 0])) as Array<{ total: string }>;
        n = Number(first?.total ?? 0);
      } else n = await this.count(m.query.bind(m), found.network, found.address);
      return {
        token: asOf,
        rows: pageRows,
        total: n,
        label: toLabel(found.network, position ?? { label_number: null, label_hash: null, label_final: null }),
      };
    });
    const supplyRaw = BigInt(token.total_supply);
    const supply = toUnits(supplyRaw, token.decimals);
    const holders = rows.map((r) => {
      const raw = BigInt(r.balance);
      const balance = toUnits(raw, token.decimals);
      // exact ratio in bigint first, then to a number with 1e-8 % resolution
      const percentage = supplyRaw > 0n ? Number((raw * 10_000_000_000n) / supplyRaw) / 100_000_000 : 0;
      return { address: r.holder, balance, rawBalance: r.balance, balanceUsd: balance * token.price, percentage };
    });
    const next = page * limit + holders.length;
    return {
      totalItems: total,
      pageItems: holders.length,
      more: next < total && next < MAX_HOLDERS_OFFSET,
      page,
      totalSupply: supply,
      holders,
      block: label,
      historyFromBlock: found.history_from_block ?? undefined,
    };
  }

  private async count(query: (sql: string, params: unknown[]) => Promise<unknown>, network: string, token: string): Promise<number> {
    const [row] = (await query(`SELECT count(*)::int AS n FROM balances WHERE network = $1 AND token = $2 AND balance > 0`, [
      network,
      token,
    ])) as Array<{ n: number }>;
    return row?.n ?? 0;
  }
}
