import { accountAddress, SEED, tokenKey } from './seed';

/** One benchmarked request: `rotating(i)` never repeats within the token-data cache's capacity (1000). */
export interface Scenario {
  readonly title: string;
  /** the hot request: the same every time (served from the per-block cache on the full path) */
  readonly fixed: string;
  readonly rotating: (i: number) => string;
  /** what must agree between the bare handler and the full path (keys in order, totals) */
  readonly fingerprint: (body: Record<string, unknown>) => unknown;
  /** the warm-up runs on (past its 2 s) until this many requests have been made */
  readonly warmupRequests?: number;
}

const LIST_ROTATION = 5000;
/** seed.ts: account j holds tokens 1 + (7j + 131k) mod N, so owners 131 apart share most tokens */
const ACCOUNT_SHARE_STRIDE = 131;
const HISTORY_FROMS = 20;
type Row = Record<string, unknown>;
const rows = (body: Record<string, unknown>, field: string): Row[] => (body[field] as Row[] | undefined) ?? [];

function listScenario(page: number): Scenario {
  const path = (minLiquidity: number): string =>
    `/v2/tokens?networks=ethereum,base&minLiquidity=${minLiquidity}&sortBy=liquidity&sortDirection=desc&limit=25&page=${page}`;
  return {
    title: `/v2/tokens networks=ethereum,base minLiquidity sortBy=liquidity desc, page ${page} (limit 25)`,
    fixed: path(1000),
    rotating: (i) => path(1000 + (i % LIST_ROTATION) / 100),
    fingerprint: (b) => ({ total: b['totalItems'], keys: rows(b, 'tokens').map((t) => t['key']) }),
  };
}

export function scenarios(nowSeconds: number): Scenario[] {
  const hour = Math.floor(nowSeconds / 3600) * 3600;
  const history = (i: number): string =>
    `/v2/tokens/history?id=${tokenKey(1 + (i % SEED.candleTokens))}&from=${hour - 86400 * 10 + 3600 * (Math.floor(i / SEED.candleTokens) % HISTORY_FROMS)}&resolution=1h`;
  const account = (j: number): string =>
    `/v2/account?owner=${accountAddress(j % SEED.accounts)}&networks=ethereum&networks=arbitrum&networks=base`;
  return [
    listScenario(0),
    listScenario(400),
    {
      title: '/v2/tokens/history resolution=1h, 100 of 240 candles',
      fixed: history(0),
      rotating: history,
      fingerprint: (b) => ({
        total: b['totalItems'],
        times: rows(b, 'history').map((h) => new Date((h['time'] ?? h['bucket']) as string).toISOString()),
      }),
    },
    {
      title: `/v2/account 3 networks (~${Math.round((SEED.tokensPerAccount * 5) / 6)} ERC-20 balances per owner)`,
      fixed: account(0),
      rotating: account,
      fingerprint: (b) =>
        rows(b, 'balances')
          .map((x) => ((x['token'] as Row | undefined)?.['key'] ?? x['key']) as string)
          .sort(),
      // Owner j holds tokens 7j + 131k: owner j + 131 shares 93 of its 100 with owner j. Before ~131
      // owners have been asked for, every token of a request is new to token-data's record cache; a
      // time-only warm-up left a slow run (a loaded machine) measuring that start-up instead of the
      // steady state (~7 % new tokens per request), so its cost depended on its own throughput.
      warmupRequests: 2 * ACCOUNT_SHARE_STRIDE,
    },
  ];
}
