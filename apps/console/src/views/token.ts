import { api } from '../api';
import { errorBox, fmt, h, render, table } from '../dom';
import { candles, drawCandles } from './chart';
import { latestHistory, type HistoryPage } from './history';
import type { TokenRow } from './tokens';

const RESOLUTIONS = ['15m', '1h', '4h', '1d'] as const;
const PLAIN = new Set(['basic', 'native']);
/** how far back each resolution's chart starts (the API accepts up to a year) */
const SPAN_S: Record<(typeof RESOLUTIONS)[number], number> = { '15m': 2 * 86_400, '1h': 7 * 86_400, '4h': 30 * 86_400, '1d': 180 * 86_400 };

interface Holder {
  address: string;
  balance: number;
  balanceUsd: number;
  percentage: number;
}
interface ActivityRow {
  type: string;
  transactionHash: string;
  time: string;
  inputAmount?: string;
  outputAmount?: string;
  amounts?: { symbol: string; amount: string; amountUsd: string }[];
}

/** One token: its facts, a candle chart, its holders and its last day's activity (the last three are paid endpoints). */
export async function tokenView(root: HTMLElement, params: URLSearchParams, signal: AbortSignal): Promise<void> {
  const id = params.get('id') ?? '';
  const res = (RESOLUTIONS as readonly string[]).includes(params.get('resolution') ?? '')
    ? (params.get('resolution') as (typeof RESOLUTIONS)[number])
    : '1h';
  const facts = h('div', {}, h('p', {}, 'Loading token…'));
  // The chart library adds its own focusable parts: a figure with a caption, not role="img", describes it.
  const chartBox = h('div', { id: 'candles', class: 'chart' });
  const chartNote = h('figcaption', { 'aria-live': 'polite' });
  const holders = h('div', {}, h('p', {}, 'Loading holders…'));
  const activity = h('div', {}, h('p', {}, 'Loading activity…'));
  const resNav = h(
    'p',
    {},
    'Candle size: ',
    ...RESOLUTIONS.flatMap((r) => [
      r === res ? h('strong', { 'aria-current': 'true' }, r) : h('a', { href: `#/token?id=${encodeURIComponent(id)}&resolution=${r}` }, r),
      ' ',
    ]),
  );
  render(
    root,
    h('h1', { id: 'token-title' }, id),
    facts,
    h('h2', {}, 'Price'),
    resNav,
    h('figure', { 'aria-label': `Price candles of ${id}, ${res} each` }, chartBox, chartNote),
    h('h2', {}, 'Holders'),
    holders,
    h('h2', {}, 'Activity (24 hours)'),
    activity,
  );

  const enc = encodeURIComponent(id);
  const from = Math.floor(Date.now() / 1000) - SPAN_S[res];
  const token = api<{ tokens: TokenRow[] }>(`/v2/tokens?ids=${enc}`).then((r) => r.tokens[0]);
  await Promise.all([
    token.then(
      (t) => {
        if (!t) return render(facts, errorBox(`No token ${id}`));
        document.getElementById('token-title')!.textContent = `${t.symbol} — ${t.name}`;
        render(
          facts,
          h(
            'dl',
            {},
            h('dt', {}, 'Key'),
            h('dd', {}, h('code', {}, t.key)),
            h('dt', {}, 'Network'),
            h('dd', {}, t.network),
            h('dt', {}, 'Platform'),
            h('dd', {}, t.platform),
            h('dt', {}, 'Price'),
            h('dd', {}, fmt.usd(t.price)),
            h('dt', {}, 'Liquidity'),
            h('dd', {}, fmt.usd(t.liquidity)),
          ),
        );
      },
      (e: Error) => render(facts, errorBox(e.message)),
    ),
    latestHistory((page) => api<HistoryPage>(`/v2/tokens/history?id=${enc}&resolution=${res}&from=${from}&page=${page}`)).then(
      (history) => {
        const data = candles(history);
        if (data.length === 0) return render(chartNote, 'No candles in this period.');
        const chart = drawCandles(chartBox, data);
        signal.addEventListener('abort', () => chart.remove());
        render(chartNote, `${data.length} candles of ${res} since ${new Date(from * 1000).toUTCString()}.`);
      },
      (e: Error) => render(chartNote, errorBox(`Candles: ${e.message}`)),
    ),
    api<{ totalSupply: number; holders: Holder[] }>(`/v2/tokens/holders?id=${enc}&limit=100`).then(
      (r) =>
        render(
          holders,
          table(
            `Top ${r.holders.length} holders`,
            ['Address', 'Balance', 'USD', 'Share'],
            r.holders
              .slice(0, 20)
              .map((x) => [
                h('code', {}, x.address),
                x.balance.toLocaleString('en-US'),
                fmt.usd(x.balanceUsd),
                `${x.percentage.toFixed(2)}%`,
              ]),
            { id: 'holders-table' },
          ),
        ),
      (e: Error) => render(holders, errorBox(`Holders: ${e.message}`)),
    ),
    // GET /v3/tokens/transactions serves platform tokens (pools, vaults, markets) only
    token.then(
      async (t) => {
        if (!t) return render(activity);
        if (PLAIN.has(t.platform))
          return render(
            activity,
            h('p', {}, 'Activity is listed for platform tokens only (pools, vaults, lending markets); this is a plain token.'),
          );
        return api<{ activities: ActivityRow[] }>(`/v3/tokens/transactions?id=${enc}&limit=25`).then(
          (r) =>
            render(
              activity,
              r.activities.length === 0
                ? h('p', {}, 'No activity in the last 24 hours.')
                : table(
                    'Latest activity',
                    ['Time', 'Type', 'Amounts', 'Transaction'],
                    r.activities.map((a) => [
                      new Date(a.time).toLocaleString(),
                      a.type,
                      amounts(a),
                      h('code', {}, `${a.transactionHash.slice(0, 10)}…`),
                    ]),
                    { id: 'activity-table' },
                  ),
            ),
          (e: Error) => render(activity, errorBox(`Activity: ${e.message}`)),
        );
      },
      () => render(activity),
    ),
  ]);
}

function amounts(a: ActivityRow): string {
  if (a.amounts) return a.amounts.map((x) => `${x.amount} ${x.symbol}`).join(', ');
  return `${a.inputAmount ?? '?'} in, ${a.outputAmount ?? '?'} out`;
}
