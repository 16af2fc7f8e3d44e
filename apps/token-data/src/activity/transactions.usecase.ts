import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ErrorCode,
  type Activity,
  type ActivityAmount,
  type DailyDebtFlow,
  type DailyVolume,
  type TokenTransactionsReply,
  type TokenTransactionsRequest,
} from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import { ChainClock } from '../clock/chain-clock';
import { metricString } from '../read-model/token-row';
import { requirePlatformToken, requireToken } from '../read-model/token-lookup';
import { TokensRepository } from '../read-model/tokens.repository';
import { ActivityRepository, type ActivityRow } from './activity.repository';
import { decodeCursor, encodeCursor } from './cursor';

export const DEFAULT_TRANSACTIONS_LIMIT = 25;
export const MAX_TRANSACTIONS_LIMIT = 50;
const DAY_MS = 86_400_000;
/** the daily aggregates cover the last seven UTC days (the activity list covers 24 hours) */
const DAILY_DAYS = 7;

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? metricString(v) : '';
}

function toAmount(record: Record<string, unknown>, withAccount: boolean): ActivityAmount {
  const amount: ActivityAmount = {
    key: str(record['key']),
    symbol: str(record['symbol']),
    amount: str(record['amount']),
    amountUsd: str(record['amountUsd']),
  };
  if (withAccount) amount.account = str(record['account']);
  return amount;
}

export function toActivity(r: ActivityRow): Activity {
  const base = { type: r.type, transactionHash: r.tx_hash, time: r.time.toISOString() };
  if (r.type === 'swap') {
    return {
      ...base,
      inputAmount: r.input_amount ?? '0',
      inputToken: r.input_token ?? '',
      inputTokenAmountUsd: metricString(r.input_usd ?? 0),
      outputAmount: r.output_amount ?? '0',
      outputToken: r.output_token ?? '',
      outputTokenAmountUsd: metricString(r.output_usd ?? 0),
      direction: r.direction,
      amounts: [],
    };
  }
  const position = r.type === 'borrow' || r.type === 'repay';
  return {
    ...base,
    amounts: r.amounts.map((a) => toAmount(position && a['account'] === undefined ? { ...a, account: r.account } : a, position)),
  };
}

/** GET /v3/tokens/transactions: the last 24 hours of a platform token's activity, newest first. */
@Injectable()
export class TokenTransactionsUseCase {
  private readonly tokens: TokensRepository;
  private readonly activities: ActivityRepository;
  constructor(
    ds: DataSource,
    private readonly clock: ChainClock,
  ) {
    this.tokens = new TokensRepository(ds);
    this.activities = new ActivityRepository(ds);
  }

  async execute(req: TokenTransactionsRequest): Promise<TokenTransactionsReply> {
    const limit = req.limit > 0 ? Math.min(req.limit, MAX_TRANSACTIONS_LIMIT) : DEFAULT_TRANSACTIONS_LIMIT;
    const after = req.cursor !== undefined && req.cursor !== '' ? decodeCursor(req.cursor) : undefined;
    if (req.cursor !== undefined && req.cursor !== '' && after === undefined) {
      throw new ServiceError(
        ErrorCode.ERROR_CODE_BAD_REQUEST,
        'cursor: not a cursor issued by this service; pass pageInfo.endCursor of the previous response, or omit it for the first page',
      );
    }
    const token = await requireToken(this.tokens, req.id);
    requirePlatformToken(token);
    const now = (await this.clock.now(token.network)).getTime();
    const rows = await this.activities.page(token.key, new Date(now - DAY_MS), after, limit + 1);
    const hasNextPage = rows.length > limit;
    const pageRows = rows.slice(0, limit);
    const last = pageRows[pageRows.length - 1];
    const endCursor =
      hasNextPage && last
        ? encodeCursor({ timeMs: last.time.getTime(), block: Number(last.block_number), logIndex: last.log_index })
        : undefined;
    const dailyVolumes: Record<string, DailyVolume> = {};
    const dailyDebtFlow: Record<string, DailyDebtFlow> = {};
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS - (DAILY_DAYS - 1) * DAY_MS;
    for (const d of await this.activities.daily(token.key, new Date(dayStart))) {
      if (d.kind === 'debt')
        dailyDebtFlow[d.day] = { grossDebtFlowRaw: d.raw, grossDebtFlowUsd: metricString(d.usd), debtEventCount: d.events };
      else dailyVolumes[d.day] = { grossVolumeRaw: d.raw, grossVolumeUsd: metricString(d.usd), eventCount: d.events };
    }
    return { pageInfo: { hasNextPage, endCursor }, activities: pageRows.map(toActivity), dailyVolumes, dailyDebtFlow };
  }
}
