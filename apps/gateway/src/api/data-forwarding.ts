import type { Activity as ApiActivity, Balance as ApiBalance, Token as ApiToken, ParsedQuery, Endpoints } from '@tokensvc/api';
import { HISTORY_ENTRY_FIELDS, METRIC_WINDOWS, TOKEN_FIELDS, recordWriter, type FieldConverters } from '@tokensvc/api';
import {
  IntervalVolumeMetrics,
  RPC,
  TokenMetrics,
  Token,
  type Activity,
  type Balance,
  type BlockLabel,
  type HistoryEntry,
} from '@tokensvc/messages';

type MetricWindow = (typeof METRIC_WINDOWS)[number];
import type { CallContext } from './call-context';

type Q<K extends keyof Endpoints> = ParsedQuery<Endpoints[K]['query']>;

/**
 * Maps between the validated public query and token-data's NATS request, and between its reply
 * and the spec's response shape. Token records cross NATS as generated `Token` messages and leave
 * the gateway as the spec's Token records (the paid-only metrics are removed afterwards by tier);
 * /v2/tokens, /v2/account and /v2/tokens/history normally come back already encoded (DATA_ENDPOINTS
 * below), and this mapping serves a token-data that answers the message instead.
 */
export function toApiToken(t: Token | undefined, blocks: readonly BlockLabel[] = []): ApiToken {
  const token = t ?? Token.fromJSON({});
  return tokenFields(token, blockOf(blocks, token.network));
}

/** The public JSON of a block label (issue 23): the number as a JSON number, the hash or null. */
export function apiBlock(label: BlockLabel | undefined): ApiToken['block'] {
  return { number: Number(label?.number ?? 0), hash: label?.hash ?? null, final: label?.final === true };
}

const blockOf = (blocks: readonly BlockLabel[], network: string): ApiToken['block'] => apiBlock(blocks.find((b) => b.network === network));

export function toBalance(b: Balance, blocks: readonly BlockLabel[] = []): ApiBalance {
  const token = b.token ?? Token.fromJSON({});
  const out = tokenFields(token, blockOf(blocks, token.network)) as ApiBalance;
  out.balance = b.balance;
  out.balanceUSD = b.balanceUsd;
  out.rawBalance = b.rawBalance;
  return out;
}

/** Token.history_from_block in the public shape: a JSON number, or null when the history is complete. */
const historyFrom = (block: string | undefined): number | null => (block === undefined ? null : Number(block));

/** The public value of a decoded message's field of each kind that is not passed on as it is. */
const PUBLIC_VALUE: FieldConverters<undefined> = {
  metrics: (v) => (v as TokenMetrics | undefined) ?? TokenMetrics.fromJSON({}),
  blockOrNull: (v) => historyFrom(v as string | undefined),
};

/**
 * The spec's records of decoded messages, from their field lists (TOKEN_FIELDS, HISTORY_ENTRY_FIELDS
 * of @tokensvc/api), then the block label. Set field by field: a few µs a record more than a
 * written-out literal, on a path that only serves a token-data answering the reply message
 * (DATA_ENDPOINTS below). Same JSON.
 */
const tokenRecord = recordWriter<Token>(TOKEN_FIELDS, PUBLIC_VALUE);
const historyRecord = recordWriter<HistoryEntry>(HISTORY_ENTRY_FIELDS, PUBLIC_VALUE);

function tokenFields(t: Token, block: ApiToken['block']): ApiToken {
  const out = tokenRecord(t, undefined);
  out['block'] = block;
  return out as ApiToken;
}

/** A history entry with its block label in the public shape. */
function toApiHistoryEntry(e: HistoryEntry): Omit<HistoryEntry, 'block'> & { block: ApiToken['block'] } {
  const out = historyRecord(e, undefined);
  out['block'] = apiBlock(e.block);
  return out as Omit<HistoryEntry, 'block'> & { block: ApiToken['block'] };
}

export function toApiActivity(a: Activity): ApiActivity {
  const base = { transactionHash: a.transactionHash, time: a.time };
  if (a.type === 'swap') {
    return {
      type: 'swap',
      ...base,
      inputAmount: a.inputAmount ?? '0',
      inputToken: a.inputToken ?? '',
      inputTokenAmountUsd: a.inputTokenAmountUsd ?? '0',
      outputAmount: a.outputAmount ?? '0',
      outputToken: a.outputToken ?? '',
      outputTokenAmountUsd: a.outputTokenAmountUsd ?? '0',
      direction: a.direction ?? 0,
    };
  }
  if (a.type === 'borrow' || a.type === 'repay') {
    return {
      type: a.type,
      ...base,
      amounts: a.amounts.map((x) => ({ key: x.key, symbol: x.symbol, amount: x.amount, amountUsd: x.amountUsd, account: x.account ?? '' })),
    };
  }
  return {
    type: a.type === 'withdraw' ? 'withdraw' : 'deposit',
    ...base,
    amounts: a.amounts.map((x) => ({ key: x.key, symbol: x.symbol, amount: x.amount, amountUsd: x.amountUsd })),
  };
}

/**
 * The large replies (tokens, account: a /v2/account answer is ~130 kB; history) are asked for as the
 * finished HTTP body of the caller's view: token-data encodes it, the gateway sends the bytes
 * (reply-body.ts in @tokensvc/transport). A token-data that answers the reply message instead is
 * mapped here as before.
 */
export const DATA_ENDPOINTS = {
  listTokens: async (q: Q<'listTokens'>, { rpc, paidData }: CallContext) => {
    const answer = await rpc.callBody(
      RPC.listTokens,
      {
        search: q.search,
        ids: q.ids ?? [],
        platforms: q.platforms ?? [],
        networks: q.networks ?? [],
        minLiquidity: q.minLiquidity,
        maxLiquidity: q.maxLiquidity,
        sortBy: q.sortBy,
        sortDirection: q.sortDirection,
        limit: q.limit,
        page: q.page,
        tags: q.tags ?? [],
        minApy: q.minApy,
        maxApy: q.maxApy,
        isPortable: q.isPortable,
        isVerified: q.isVerified,
        finality: q.finality,
      },
      paidData ? 'paid' : 'free',
    );
    if ('body' in answer) return answer.body;
    const { blocks, ...reply } = answer.reply;
    return { ...reply, tokens: reply.tokens.map((t) => toApiToken(t, blocks)) };
  },
  account: async (q: Q<'account'>, { rpc, paidData }: CallContext) => {
    const answer = await rpc.callBody(
      RPC.account,
      { owner: q.owner, networks: q.networks, finality: q.finality },
      paidData ? 'paid' : 'free',
    );
    if ('body' in answer) return answer.body;
    return { totalQueried: answer.reply.totalQueried, balances: answer.reply.balances.map((b) => toBalance(b, answer.reply.blocks)) };
  },
  tokenHistory: async (q: Q<'tokenHistory'>, { rpc, paidData }: CallContext) => {
    const answer = await rpc.callBody(
      RPC.tokenHistory,
      { id: q.id, from: String(q.from ?? 0), page: q.page, resolution: q.resolution, finality: q.finality },
      paidData ? 'paid' : 'free',
    );
    if ('body' in answer) return answer.body;
    return { ...answer.reply, history: answer.reply.history.map(toApiHistoryEntry), block: apiBlock(answer.reply.block) };
  },
  tokenTransactions: async (q: Q<'tokenTransactions'>, { rpc }: CallContext) => {
    const reply = await rpc.call(RPC.tokenTransactions, { id: q.id, cursor: q.cursor, limit: q.limit });
    const pageInfo = reply.pageInfo ?? { hasNextPage: false };
    return {
      pageInfo: { hasNextPage: pageInfo.hasNextPage, endCursor: pageInfo.hasNextPage ? (pageInfo.endCursor ?? null) : null },
      activities: reply.activities.map(toApiActivity),
      dailyVolumes: reply.dailyVolumes,
      dailyDebtFlow: reply.dailyDebtFlow,
    };
  },
  tokenMetrics: async (q: Q<'tokenMetrics'>, { rpc }: CallContext) => {
    const { windows } = await rpc.call(RPC.tokenMetrics, { id: q.id });
    const window = (name: MetricWindow): IntervalVolumeMetrics => windows[name] ?? IntervalVolumeMetrics.fromJSON({});
    return Object.fromEntries(METRIC_WINDOWS.map((w) => [w, window(w)])) as Record<MetricWindow, IntervalVolumeMetrics>;
  },
  tokenHolders: async (q: Q<'tokenHolders'>, { rpc }: CallContext) => {
    const reply = await rpc.call(RPC.tokenHolders, { id: q.id, limit: q.limit, page: q.page, finality: q.finality });
    return { ...reply, block: apiBlock(reply.block), historyFromBlock: historyFrom(reply.historyFromBlock) };
  },
};
