import { PAID_METRIC_FIELDS, PUBLIC_METRIC_FIELDS } from '@tokensvc/api';
import type { AccountReply, Balance, BlockLabel, HistoryEntry, ListTokensReply, Token, TokenHistoryReply } from '@tokensvc/messages';
import { gatewayAccount, gatewayHistory, gatewayList } from '../../test/gateway-mapping';
import { accountBody, historyBody, listTokensBody, tokenJson } from './response-body';
import { toToken, type TokenRow } from '../read-model/token-row';

// The oracle (what the gateway makes of the usual reply) is shared with the e2e tests.
const ROW: TokenRow = {
  key: 'ethereum:0x00000000000000000000000000000000000000a1',
  network: 'ethereum',
  address: '0x00000000000000000000000000000000000000a1',
  platform: 'uniswap-v2',
  family: 'uniswap-v2',
  name: 'Pool "A"\\B ✓ 𝔘',
  symbol: 'UNI-V2',
  decimals: 18,
  underlying: ['ethereum:0xAB', '0xCD'],
  pool_address: '0x00000000000000000000000000000000000000a1',
  image: '/a.png',
  images: [],
  tags: ['defi', 'lp'],
  metadata: { extra: { a: 1 }, n: 2 },
  is_portable: true,
  is_verified: false,
  created_at: new Date('2026-01-01T00:00:00Z'),
  updated_at: new Date('2026-01-02T00:00:00Z'),
  verified_at: null,
  history_from_block: '18000000',
  price: 1234.5678901234,
  liquidity: 9.87e12,
  total_supply: '1000000000000000000000',
  total_borrow: '0',
  circulating_supply: '5',
  reserves: ['1', '2'],
  price_per_share: '1.02',
  apy: 3.25,
  base_apy: 1e-9,
  reward_apy: 0,
  borrow_apy: 2e21,
  base_borrow_apy: -0.5,
  volume_usd_1d: 123.456,
  volume_usd_7d: 1e6,
  paid_metrics: { price1d: 0.1, liquidity7d: '12.5', apy1d: null },
};

// Odd values of every kind a field could hold at run time, beside the declared type's.
const ODD: unknown[] = [
  '',
  'x',
  '€ "q" \\ \n',
  '\ud800',
  0,
  -0,
  1.5,
  2.5,
  -3.5,
  1e21,
  5e-324,
  NaN,
  Infinity,
  -Infinity,
  true,
  false,
  null,
  undefined,
  [],
  ['a', null, 1, NaN],
  { 1: 'a', b: 2 },
  { a: undefined, b: NaN },
];
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
function oddToken(r: () => number): Token {
  const base = toToken({ ...ROW, key: `ethereum:0x${Math.floor(r() * 1e9).toString(16)}` }) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...base };
  for (const k of Object.keys(base)) if (r() < 0.3) out[k] = ODD[Math.floor(r() * ODD.length)];
  if (r() < 0.5 && typeof out['metrics'] === 'object' && out['metrics'] !== null) {
    const m: Record<string, unknown> = { ...(out['metrics'] as object) };
    for (const k of [...PUBLIC_METRIC_FIELDS, ...PAID_METRIC_FIELDS]) if (r() < 0.3) m[k] = ODD[Math.floor(r() * ODD.length)];
    out['metrics'] = m;
  }
  // values the generated encoder itself cannot take (it would throw on the usual path too)
  if (out['metrics'] === null || (typeof out['metrics'] !== 'object' && out['metrics'] !== undefined)) out['metrics'] = undefined;
  for (const k of ['images', 'tokens', 'reserves'])
    if (typeof out[k] === 'string' || typeof out[k] === 'number' || out[k] === true) out[k] = [];
  return out as unknown as Token;
}
const balance = (token: Token | undefined, raw: string, amount: number, usd: number): Balance => ({
  token,
  balance: amount,
  balanceUsd: usd,
  rawBalance: raw,
});
const ETH_BLOCK: BlockLabel = { network: 'ethereum', number: '19000123', hash: `0x${'ab'.repeat(32)}`, final: false };
const BASE_BLOCK: BlockLabel = { network: 'base', number: '777', final: true };

describe('response bodies encoded by token-data', () => {
  const token = toToken(ROW);

  it('are byte for byte what the gateway makes of the usual reply, for both views', () => {
    const reply: AccountReply = {
      totalQueried: 3,
      balances: [
        balance(token, '1500000000000000000', 1.5, 1851.85),
        balance(toToken({ ...ROW, key: 'base:0x02', network: 'base', paid_metrics: {} }), '1', 1e-18, 0),
      ],
      blocks: [ETH_BLOCK, BASE_BLOCK],
    };
    const list: ListTokensReply = {
      totalItems: 2,
      pageItems: 2,
      more: true,
      page: 4,
      tokens: [token, toToken({ ...ROW, name: 'B', metadata: {} })],
      blocks: [ETH_BLOCK],
    };
    for (const view of ['paid', 'free'] as const) {
      expect(accountBody(reply, view).toString()).toBe(gatewayAccount(reply, view));
      expect(listTokensBody(list, view).toString()).toBe(gatewayList(list, view));
    }
    const free = JSON.parse(accountBody(reply, 'free').toString()) as {
      balances: Array<{ metrics: object; block: object; balance: number }>;
    };
    expect(Object.keys(free.balances[0]!.metrics)).toEqual([...PUBLIC_METRIC_FIELDS]);
    // each record carries its network's block (issue 23), before the balance fields
    expect(free.balances.map((b) => b.block)).toEqual([
      { number: 19000123, hash: ETH_BLOCK.hash, final: false },
      { number: 777, hash: null, final: true },
    ]);
    expect(Object.keys(free.balances[0]!).slice(-4)).toEqual(['block', 'balance', 'balanceUSD', 'rawBalance']);
    // a token record is built once, whatever the block: the label is not part of the kept fragment
    const next = JSON.parse(listTokensBody({ ...list, blocks: [{ ...ETH_BLOCK, number: '19000124' }] }, 'paid').toString()) as {
      tokens: Array<{ block: { number: number } }>;
    };
    expect(next.tokens.map((t) => t.block.number)).toEqual([19000124, 19000124]);
  });

  it('match it for empty replies, a missing token, missing metrics, odd numbers and odd map keys', () => {
    const noMetrics = {
      ...token,
      metrics: undefined,
      addresses: JSON.parse('{"__proto__":"p","b":"x","1":"one"}') as Record<string, string>,
    };
    const reply: AccountReply = {
      totalQueried: 0,
      balances: [
        balance(undefined, '', 0, 0),
        balance(noMetrics, '7', NaN, Infinity),
        balance(token, '8', -0, 5e-324),
        balance(token, '9', 1e21, -Infinity),
      ],
      blocks: [],
    };
    for (const view of ['paid', 'free'] as const) {
      expect(accountBody(reply, view).toString()).toBe(gatewayAccount(reply, view));
      expect(accountBody({ totalQueried: 2, balances: [], blocks: [] }, view).toString()).toBe(
        gatewayAccount({ totalQueried: 2, balances: [], blocks: [] }, view),
      );
      expect(listTokensBody({ totalItems: 0, pageItems: 0, more: false, page: 0, tokens: [], blocks: [] }, view).toString()).toBe(
        '{"totalItems":0,"pageItems":0,"more":false,"page":0,"tokens":[]}',
      );
      const odd: ListTokensReply = { totalItems: 1.5, pageItems: NaN, more: false, page: 2.5, tokens: [noMetrics], blocks: [ETH_BLOCK] };
      expect(listTokensBody(odd, view).toString()).toBe(gatewayList(odd, view));
    }
  });

  it('match it for 1,000 tokens with values of the wrong type in random fields', () => {
    const r = rng(7);
    const mismatches: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const t = oddToken(r);
      const reply: AccountReply = {
        totalQueried: 1,
        balances: [balance(t, String(ODD[i % ODD.length]), r() * 10, r() * 1e6)],
        blocks: [ETH_BLOCK],
      };
      for (const view of ['paid', 'free'] as const) {
        const [got, want] = [accountBody(reply, view).toString(), gatewayAccount(reply, view)];
        if (got !== want && mismatches.length < 3) mismatches.push(`${view}\n got  ${got}\n want ${want}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('history: the decoded reply as the gateway sent it, odd values included', () => {
    const entry = (i: number): HistoryEntry => ({
      time: new Date(Date.UTC(2026, 0, 1, i)).toISOString(),
      highPrice: '1.02',
      lowPrice: '0.98',
      openPrice: '1',
      closePrice: '1.01',
      liquidity: '123456.5',
      reserves: ['1', '2'],
      totalSupply: '1000',
      totalBorrow: '0',
      circulatingSupply: '900',
      pricePerShare: '1',
      volume1dUsd: '12.5',
      apy: '3.2',
      baseApy: '1',
      rewardApy: '0',
      borrowApy: '0',
      baseBorrowApy: '0',
      trendingScore: i / 7,
    });
    const labelled = (i: number): HistoryEntry => ({
      ...entry(i),
      block: { network: 'ethereum', number: String(100 + i), hash: i % 2 ? `0x${'cd'.repeat(32)}` : undefined, final: i < 50 },
    });
    const reply: TokenHistoryReply = {
      totalItems: 240,
      pageItems: 100,
      more: true,
      page: 0,
      history: Array.from({ length: 100 }, (_, i) => labelled(i)),
      block: ETH_BLOCK,
    };
    expect(historyBody(reply).toString()).toBe(gatewayHistory(reply));
    const parsed = JSON.parse(historyBody(reply).toString()) as { history: Array<{ block: unknown }>; block: unknown };
    expect([parsed.history[1]!.block, parsed.history[60]!.block, parsed.block]).toEqual([
      { number: 101, hash: `0x${'cd'.repeat(32)}`, final: true },
      { number: 160, hash: null, final: false },
      { number: 19000123, hash: ETH_BLOCK.hash, final: false },
    ]);
    expect(historyBody({ totalItems: 0, pageItems: 0, more: false, page: 3, history: [] }).toString()).toBe(
      gatewayHistory({ totalItems: 0, pageItems: 0, more: false, page: 3, history: [] }),
    );
    const r = rng(11);
    for (let i = 0; i < 300; i++) {
      const e: Record<string, unknown> = { ...entry(i) };
      for (const k of Object.keys(e)) if (r() < 0.3) e[k] = ODD[Math.floor(r() * ODD.length)];
      if (typeof e['reserves'] === 'string' || typeof e['reserves'] === 'number' || e['reserves'] === true) e['reserves'] = [];
      const odd = { ...reply, history: [e as unknown as HistoryEntry] };
      expect(historyBody(odd).toString()).toBe(gatewayHistory(odd));
    }
  });

  it('build each token record once per Token object and view', () => {
    const t = toToken(ROW);
    expect(tokenJson(t, 'paid')).toBe(tokenJson(t, 'paid'));
    expect(tokenJson(t, 'free')).not.toBe(tokenJson(t, 'paid'));
    expect(tokenJson(t, 'free').length).toBeLessThan(tokenJson(t, 'paid').length);
    expect(tokenJson(toToken(ROW), 'paid')).not.toBe(tokenJson(t, 'paid'));
    expect(tokenJson(toToken(ROW), 'paid').equals(tokenJson(t, 'paid'))).toBe(true);
  });
});
