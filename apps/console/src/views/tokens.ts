import { api } from '../api';
import { errorBox, fmt, h, render, table } from '../dom';

export interface TokenRow {
  key: string;
  name: string;
  symbol: string;
  network: string;
  platform: string;
  price?: number;
  liquidity?: number;
  decimals?: number;
  totalSupply?: string;
}

const SORTS = [
  ['', 'default order'],
  ['liquidity', 'liquidity'],
  ['price', 'price'],
  ['name', 'name'],
  ['symbol', 'symbol'],
  ['volumeUsd1d', 'volume (1d)'],
  ['createdAt', 'created'],
] as const;
const PAGE_SIZE = 25;

const select = (id: string, options: readonly (readonly [string, string])[], value: string): HTMLSelectElement =>
  h('select', { id, name: id }, ...options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));

/** The token explorer over GET /v2/tokens: search, network and liquidity filters, sort, pages. */
export async function tokensView(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  let networks: string[] = [];
  try {
    networks = await api<string[]>('/v1/networks');
  } catch {
    // the filter still works as free text-less select with "all"
  }
  const form = h(
    'form',
    { id: 'token-filters', role: 'search', onsubmit: (e: Event) => submit(e) },
    h('label', { for: 'search' }, 'Name contains'),
    h('input', { id: 'search', name: 'search', type: 'search', value: params.get('search') ?? '', maxlength: 128 }),
    h('label', { for: 'networks' }, 'Network'),
    select('networks', [['', 'all networks'], ...networks.map((n): [string, string] => [n, n])], params.get('networks') ?? ''),
    h('label', { for: 'minLiquidity' }, 'Min. liquidity (USD)'),
    h('input', { id: 'minLiquidity', name: 'minLiquidity', type: 'number', min: 0, step: 'any', value: params.get('minLiquidity') ?? '' }),
    h('label', { for: 'sortBy' }, 'Sort by'),
    select('sortBy', SORTS, params.get('sortBy') ?? ''),
    h('label', { for: 'sortDirection' }, 'Direction'),
    select(
      'sortDirection',
      [
        ['desc', 'descending'],
        ['asc', 'ascending'],
      ],
      params.get('sortDirection') ?? 'desc',
    ),
    h('button', { type: 'submit' }, 'Search'),
  );
  const results = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading tokens…'));
  render(root, h('h1', {}, 'Tokens'), form, results);

  const q = new URLSearchParams({ limit: String(PAGE_SIZE), page: String(page) });
  for (const name of ['search', 'networks', 'minLiquidity', 'sortBy']) {
    const v = params.get(name);
    if (v) q.set(name, v);
  }
  if (params.get('sortBy')) q.set('sortDirection', params.get('sortDirection') ?? 'desc');
  try {
    const r = await api<{ totalItems: number | string; more: boolean; tokens: TokenRow[] }>(`/v2/tokens?${q}`);
    const pageLink = (p: number, label: string): HTMLAnchorElement => {
      const next = new URLSearchParams(params);
      next.set('page', String(p));
      return h('a', { href: `#/tokens?${next}`, class: 'button' }, label);
    };
    render(
      results,
      table(
        `${fmt.int(Number(r.totalItems))} tokens; page ${page + 1}`,
        ['Token', 'Network', 'Platform', 'Price', 'Liquidity'],
        r.tokens.map((t) => [
          h('a', { href: `#/token?id=${encodeURIComponent(t.key)}`, 'data-token': t.key }, `${t.symbol} — ${t.name}`),
          t.network,
          t.platform,
          fmt.usd(t.price),
          fmt.usd(t.liquidity),
        ]),
        { id: 'tokens-table' },
      ),
      h(
        'nav',
        { 'aria-label': 'Pages' },
        page > 0 ? pageLink(page - 1, 'Previous page') : null,
        ' ',
        r.more ? pageLink(page + 1, 'Next page') : null,
      ),
    );
  } catch (e) {
    render(results, errorBox(`Tokens could not be listed: ${(e as Error).message}`));
  }
}

function submit(e: Event): void {
  e.preventDefault();
  const data = new FormData(e.target as HTMLFormElement);
  const next = new URLSearchParams();
  for (const [k, v] of data.entries()) if (typeof v === 'string' && v.trim() !== '') next.set(k, v.trim());
  location.hash = `#/tokens?${next}`;
}
