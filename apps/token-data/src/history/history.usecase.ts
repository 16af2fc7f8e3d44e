import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ErrorCode, type BlockLabel, type HistoryEntry, type TokenHistoryReply, type TokenHistoryRequest } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import { ChainClock } from '../clock/chain-clock';
import { CANDLES_AS_OF_FINALIZED_SQL } from '../finality/candles-as-of';
import { asOfBlockSql, finalityOf, labelColumnsSql, toLabel, type LabelColumns } from '../finality/finality';
import { metricString } from '../read-model/token-row';
import { requireToken } from '../read-model/token-lookup';
import { TokensRepository } from '../read-model/tokens.repository';

export const RESOLUTION_SECONDS: Readonly<Record<string, number>> = { '15m': 900, '30m': 1800, '1h': 3600, '4h': 14400, '1d': 86400 };
export const HISTORY_PAGE_SIZE = 100;
const YEAR_SECONDS = 365 * 86400;

/** `from` truncated down to the start of its resolution bucket (UTC), so one bucket gives one answer. */
export function bucketStart(fromSeconds: number, resolution: string): number {
  const size = RESOLUTION_SECONDS[resolution];
  if (size === undefined) throw new Error(`unknown resolution ${resolution}`);
  return Math.floor(fromSeconds / size) * size;
}

/** The spec's bounds on `from`: within the last year (wall clock) and not in the future. */
export function checkFrom(fromSeconds: number, nowSeconds: number): void {
  if (fromSeconds < nowSeconds - YEAR_SECONDS) {
    throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'from: the timestamp is not valid, it must be newer than one year ago');
  }
  if (fromSeconds > nowSeconds)
    throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'from: the timestamp is not valid, it must not be in the future');
}

interface CandleRow {
  bucket: Date;
  open: number;
  high: number;
  low: number;
  close: number;
  liquidity: number;
  reserves: string[];
  total_supply: string;
  total_borrow: string;
  circulating_supply: string;
  price_per_share: string;
  volume_1d_usd: number;
  apy: number;
  base_apy: number;
  reward_apy: number;
  borrow_apy: number;
  base_borrow_apy: number;
  trending_score: number;
  block_number: string;
  total: string;
}

/** A candle's label: its last block, with the hash when that header is stored, final when at or below the finalized block. */
function entryLabel(network: string, block: string, hashes: ReadonlyMap<string, string>, finalized: number): BlockLabel {
  return { network, number: block, hash: hashes.get(block), final: Number(block) <= finalized };
}

function toEntry(r: CandleRow, block: BlockLabel): HistoryEntry {
  return {
    time: r.bucket.toISOString(),
    highPrice: metricString(r.high),
    lowPrice: metricString(r.low),
    openPrice: metricString(r.open),
    closePrice: metricString(r.close),
    liquidity: metricString(r.liquidity),
    reserves: r.reserves,
    totalSupply: r.total_supply,
    totalBorrow: r.total_borrow,
    circulatingSupply: r.circulating_supply,
    pricePerShare: r.price_per_share,
    volume1dUsd: metricString(r.volume_1d_usd),
    apy: metricString(r.apy),
    baseApy: metricString(r.base_apy),
    rewardApy: metricString(r.reward_apy),
    borrowApy: metricString(r.borrow_apy),
    baseBorrowApy: metricString(r.base_borrow_apy),
    trendingScore: r.trending_score,
    block,
  };
}

/**
 * GET /v2/tokens/history: candles of one resolution from `from` on, oldest first, 100 per page. Each
 * entry is labelled with its last block and the reply with the block it is as of (the cursor, or
 * with finality=finalized the finalized block: candles-as-of.ts), read in one REPEATABLE READ snapshot.
 */
@Injectable()
export class TokenHistoryUseCase {
  private readonly tokens: TokensRepository;
  constructor(
    private readonly ds: DataSource,
    private readonly clock: ChainClock,
  ) {
    this.tokens = new TokensRepository(ds);
  }

  async execute(req: TokenHistoryRequest, wallNow = Date.now()): Promise<TokenHistoryReply> {
    const resolution = req.resolution || '1d';
    if (RESOLUTION_SECONDS[resolution] === undefined) {
      throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, `resolution must be one of ${Object.keys(RESOLUTION_SECONDS).join(', ')}`);
    }
    const token = await requireToken(this.tokens, req.id);
    const requested = Number(req.from);
    const finality = finalityOf(req.finality);
    let from: number | undefined;
    if (requested > 0) {
      checkFrom(requested, Math.floor(wallNow / 1000));
      from = requested;
    } else if (finality === 'latest') {
      from = Math.floor((await this.clock.now(token.network)).getTime() / 1000) - 86400;
    }
    const page = Math.max(0, req.page);
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const [position] = (await m.query(
        `SELECT ${labelColumnsSql(asOfBlockSql(finality))}, c.finalized_block, extract(epoch FROM c.finalized_time)::float8 AS finalized_epoch FROM index_cursors c WHERE c.network = $1`,
        [token.network],
      )) as Array<LabelColumns & { finalized_block: string; finalized_epoch: number | null }>;
      // as of the finalized block, the default window is the day before that block's time (not the head's)
      const start = bucketStart(
        from ?? Math.floor(position?.finalized_epoch ?? (await this.clock.now(token.network)).getTime() / 1000) - 86400,
        resolution,
      );
      const rows: CandleRow[] =
        finality === 'finalized'
          ? await m.query(CANDLES_AS_OF_FINALIZED_SQL, [
              token.key,
              resolution,
              start,
              HISTORY_PAGE_SIZE,
              page * HISTORY_PAGE_SIZE,
              token.network,
              RESOLUTION_SECONDS[resolution],
            ])
          : await m.query(
              `SELECT bucket, open, high, low, close, liquidity, reserves::text[] AS reserves, total_supply::text AS total_supply,
                      total_borrow::text AS total_borrow, circulating_supply::text AS circulating_supply, price_per_share,
                      volume_1d_usd, apy, base_apy, reward_apy, borrow_apy, base_borrow_apy, trending_score, block_number, count(*) OVER () AS total
                 FROM candles WHERE token_key = $1 AND resolution = $2 AND bucket >= to_timestamp($3)
                ORDER BY bucket LIMIT $4 OFFSET $5`,
              [token.key, resolution, start, HISTORY_PAGE_SIZE, page * HISTORY_PAGE_SIZE],
            );
      let total: number;
      if (rows.length > 0) total = Number(rows[0]!.total);
      else if (finality === 'finalized') {
        // a page past the end: the count from the first row
        const [first] = (await m.query(CANDLES_AS_OF_FINALIZED_SQL, [
          token.key,
          resolution,
          start,
          1,
          0,
          token.network,
          RESOLUTION_SECONDS[resolution],
        ])) as CandleRow[];
        total = Number(first?.total ?? 0);
      } else total = await this.count(m.query.bind(m), token.key, resolution, start);
      const hashRows = (await m.query(`SELECT number::text AS number, hash FROM blocks WHERE network = $1 AND number = ANY($2::bigint[])`, [
        token.network,
        [...new Set(rows.map((r) => r.block_number))],
      ])) as Array<{ number: string; hash: string }>;
      const hashes = new Map(hashRows.map((h) => [h.number, h.hash]));
      const finalized = Number(position?.finalized_block ?? -1);
      const history = rows.map((r) => toEntry(r, entryLabel(token.network, String(r.block_number), hashes, finalized)));
      const block = toLabel(token.network, position ?? { label_number: null, label_hash: null, label_final: null });
      return { totalItems: total, pageItems: rows.length, more: page * HISTORY_PAGE_SIZE + rows.length < total, page, history, block };
    });
  }

  private async count(
    query: (sql: string, params: unknown[]) => Promise<unknown>,
    key: string,
    resolution: string,
    from: number,
  ): Promise<number> {
    const [row] = (await query(
      `SELECT count(*)::int AS n FROM candles WHERE token_key = $1 AND resolution = $2 AND bucket >= to_timestamp($3)`,
      [key, resolution, from],
    )) as Array<{ n: number }>;
    return row?.n ?? 0;
  }
}
