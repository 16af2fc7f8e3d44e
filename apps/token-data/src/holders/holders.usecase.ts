import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { toUnits } from '@tokensvc/domain';
import { ErrorCode, type TokenHoldersReply, type TokenHoldersRequest } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import { requireToken } from '../tokens/token-lookup';
import { TokensRepository } from '../tokens/tokens.repository';

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
 * its holder list is empty.
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
      throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, `page × limit must stay below ${MAX_HOLDERS_OFFSET}: holders are listed down to rank ${MAX_HOLDERS_OFFSET} (page ${page} of ${limit} starts at ${page * limit})`);
    }
    const token = await requireToken(this.tokens, req.id);
    const rows: Array<{ holder: string; balance: string; total: string }> = await this.ds.query(
      // ORDER BY names the table column: a bare \`balance\` would sort by the text output column
      `SELECT b.holder, b.balance::text AS balance, count(*) OVER () AS total FROM balances b
        WHERE b.network = $1 AND b.token = $2 AND b.balance > 0
        ORDER BY b.balance DESC, b.holder LIMIT $3 OFFSET $4`,
      [token.network, token.address, limit, page * limit],
    );
    const total = rows.length > 0 ? Number(rows[0]!.total) : await this.count(token.network, token.address);
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
    return { totalItems: total, pageItems: holders.length, more: next < total && next < MAX_HOLDERS_OFFSET, page, totalSupply: supply, holders };
  }

  private async count(network: string, token: string): Promise<number> {
    const [row] = (await this.ds.query(`SELECT count(*)::int AS n FROM balances WHERE network = $1 AND token = $2 AND balance > 0`, [network, token])) as Array<{ n: number }>;
    return row?.n ?? 0;
  }
}
