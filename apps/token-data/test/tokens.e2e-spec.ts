/**
 * GET /v2/tokens, /v1/networks, /v2/platforms and the tier split, through the gateway over data the
 * indexer built from the shared devnet. Filters are checked against the full catalogue fetched once
 * (the expected set is computed here from the returned records, not from SQL).
 */
import { ListTokensRequest, RPC } from '@tokensvc/messages';
import * as testing from '@tokensvc/testing';
import { NatsRpcClient } from '@tokensvc/transport';
import { gatewayList } from './gateway-mapping';
import { startDataSurface, type DataSurface } from './harness';
import { PAID_METRICS, tokenProblems } from './token-shape';

type Tok = Record<string, any>;
const SORTS: Record<string, (t: Tok) => number | string> = {
  key: (t) => t.key,
  decimals: (t) => t.decimals,
  name: (t) => t.name,
  symbol: (t) => t.symbol,
  updatedAt: (t) => t.updatedAt,
  price: (t) => t.price,
  liquidity: (t) => t.liquidity,
  platform: (t) => t.platform,
  network: (t) => t.network,
  apy: (t) => Number(t.metrics.apy),
  volumeUsd1d: (t) => Number(t.metrics.volumeUsd1d),
  volumeUsd7d: (t) => Number(t.metrics.volumeUsd7d),
  createdAt: (t) => t.createdAt,
  verifiedAt: (t) => t.verifiedAt,
};
const keys = (ts: Tok[]): string[] => ts.map((t) => t.key as string).sort();

describe('GET /v2/tokens and the catalogue over indexed devnet data', () => {
  let s: DataSurface;
  let all: Tok[] = [];
  const logs: string[] = [];
  beforeAll(async () => {
    const t = Date.now();
    s = await startDataSurface(testing, 'td_tokens', (l) => logs.push(l));
    process.stdout.write(`data surface ready in ${Date.now() - t} ms\n`);
    const r = await s.paid('/v2/tokens?limit=250');
    expect(r.status).toBe(200);
    all = r.body.tokens;
  }, 300_000);
  afterAll(async () => {
    await s?.stop();
    const errors = logs.filter((l) => /"level":"(error|fatal)"/.test(l));
    if (errors.length) process.stdout.write(`app errors:\n${errors.slice(0, 20).join('\n')}\n`);
  });

  const expectFilter = async (query: string, pick: (t: Tok) => boolean, opts: { proper?: boolean } = {}): Promise<void> => {
    const r = await s.paid(`/v2/tokens?limit=250&${query}`);
    expect(r.status).toBe(200);
    const want = all.filter(pick);
    expect(want.length).toBeGreaterThan(0);
    if (opts.proper !== false) expect(want.length).toBeLessThan(all.length);
    expect({ query, keys: keys(r.body.tokens), total: r.body.totalItems }).toEqual({ query, keys: keys(want), total: want.length });
  };

  it('returns the whole indexed registry with every Token field, of the right type, on every record (paid)', async () => {
    const { rows } = await s.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM tokens');
    expect(all.length).toBe(rows[0]!.n);
    expect(all.length).toBeGreaterThan(50);
    expect(all.flatMap((t) => tokenProblems(t, true))).toEqual([]);
    for (const n of ['ethereum', 'arbitrum', 'base']) expect(all.filter((t) => t.network === n).length).toBeGreaterThan(10);
  });

  it('free key: the same records without the paid metrics; paid endpoints answer 403', async () => {
    const r = await s.free('/v2/tokens?limit=250');
    expect(r.status).toBe(200);
    expect(r.body.tokens.flatMap((t: Tok) => tokenProblems(t, false))).toEqual([]);
    expect(keys(r.body.tokens)).toEqual(keys(all));
    for (const t of all) for (const m of PAID_METRICS) expect(typeof t.metrics[m]).toBe('string');
    const id = all.find((t) => t.platform === 'uniswap-v2')!.key;
    for (const path of [
      `/v2/tokens/history?id=${id}`,
      `/v3/tokens/transactions?id=${id}`,
      `/v3/tokens/metrics?id=${id}`,
      `/v2/tokens/holders?id=${id}`,
    ]) {
      const f = await s.free(path);
      expect({ path, status: f.status }).toEqual({ path, status: 403 });
      expect(f.body.message).toMatch(/plan does not allow access/i);
    }
  });

  it('the bodies token-data encodes for the gateway are, byte for byte, its mapping of the reply message (paid and free)', async () => {
    const rpc = new NatsRpcClient(s.natsUrl, 10_000, 'e2e-list-bodies');
    await rpc.start();
    try {
      for (const [path, req] of [
        ['/v2/tokens?limit=250', { limit: 250 }],
        [
          '/v2/tokens?limit=30&page=1&sortBy=liquidity&sortDirection=desc&networks=base,ethereum',
          { limit: 30, page: 1, sortBy: 'liquidity', sortDirection: 'desc', networks: ['base', 'ethereum'] },
        ],
      ] as const) {
        const reply = await rpc.call(RPC.listTokens, ListTokensRequest.fromJSON({ sortDirection: 'asc', page: 0, maxApy: 1e6, ...req }));
        expect(reply.tokens.length).toBeGreaterThan(0);
        expect(JSON.stringify((await s.paid(path)).body)).toBe(gatewayList(reply, 'paid'));
        expect(JSON.stringify((await s.free(path)).body)).toBe(gatewayList(reply, 'free'));
      }
    } finally {
      await rpc.close();
    }
  });

  it('limit: default 25, max 250; 251 and 0 are 400 naming limit; page needs limit', async () => {
    const d = await s.paid('/v2/tokens');
    expect(d.body).toMatchObject({ totalItems: all.length, pageItems: 25, more: true, page: 0 });
    expect(d.body.tokens).toHaveLength(25);
    for (const bad of ['limit=251', 'limit=0', 'limit=abc', 'limit=2.5']) {
      const r = await s.paid(`/v2/tokens?${bad}`);
      expect({ bad, status: r.status }).toEqual({ bad, status: 400 });
      expect(r.body.message).toContain('limit');
    }
    expect(await s.paid('/v2/tokens?limit=251')).toMatchObject({ body: { message: expect.stringMatching(/250/) } });
    const p = await s.paid('/v2/tokens?page=1');
    expect(p.status).toBe(400);
    expect(p.body.message).toMatch(/limit/);
    expect((await s.paid('/v2/tokens?limit=5&page=-1')).status).toBe(400);
  });

  it('paging: pages tile the list in order, the last page is short with more=false, past the end is empty', async () => {
    const limit = 20;
    const pages = Math.ceil(all.length / limit);
    const seen: string[] = [];
    for (let page = 0; page < pages; page++) {
      const r = await s.paid(`/v2/tokens?limit=${limit}&page=${page}`);
      const last = page === pages - 1;
      expect(r.body).toMatchObject({ totalItems: all.length, page, more: !last, pageItems: last ? all.length - page * limit : limit });
      seen.push(...r.body.tokens.map((t: Tok) => t.key));
    }
    expect(seen).toEqual(all.map((t) => t.key));
    const past = await s.paid(`/v2/tokens?limit=${limit}&page=${pages + 3}`);
    expect(past.body).toEqual({ totalItems: all.length, pageItems: 0, more: false, page: pages + 3, tokens: [] });
    const exact = await s.paid(`/v2/tokens?limit=${all.length}&page=0`);
    expect(exact.body).toMatchObject({ pageItems: all.length, more: false });
  });

  it('search matches the name case-insensitively (and only the name)', async () => {
    const named = all.find((t) => t.platform === 'aave-v3')!;
    const word = String(named.name).split(' ')[0]!;
    await expectFilter(`search=${encodeURIComponent(word.toUpperCase())}`, (t) =>
      String(t.name).toLowerCase().includes(word.toLowerCase()),
    );
    await expectFilter(`search=${encodeURIComponent(word.toLowerCase())}`, (t) =>
      String(t.name).toLowerCase().includes(word.toLowerCase()),
    );
    const r = await s.paid('/v2/tokens?search=%25');
    expect(r.body.totalItems).toBe(all.filter((t) => String(t.name).includes('%')).length);
  });

  it('ids: a comma list of keys in any case; unknown keys match nothing; a malformed key is 400', async () => {
    const pick = [all[0]!, all[7]!, all[40]!];
    const ids = pick.map((t) => `${t.network}:${String(t.address).toUpperCase().replace('0X', '0x')}`).join(',');
    await expectFilter(`ids=${ids}`, (t) => pick.includes(t));
    const none = await s.paid('/v2/tokens?ids=ethereum:0x00000000000000000000000000000000000000ff');
    expect(none.body).toMatchObject({ totalItems: 0, tokens: [] });
    expect((await s.paid('/v2/tokens?ids=notakey')).status).toBe(400);
  });

  it('platforms and networks: repeated and comma forms, elements OR-ed', async () => {
    const inP = (t: Tok): boolean => ['uniswap-v2', 'aave-v3'].includes(t.platform);
    await expectFilter('platforms=uniswap-v2&platforms=aave-v3', inP);
    await expectFilter('platforms=uniswap-v2,aave-v3', inP);
    await expectFilter('platforms[]=uniswap-v2&platforms[]=aave-v3', inP).catch(async () => {
      // the bracket form is not declared: then it must be a clean 400, not a silent ignore
      expect((await s.paid('/v2/tokens?platforms[]=uniswap-v2')).status).toBe(400);
    });
    const inN = (t: Tok): boolean => ['base', 'arbitrum'].includes(t.network);
    await expectFilter('networks=base&networks=arbitrum', inN);
    await expectFilter('networks=base,arbitrum', inN);
    expect((await s.paid('/v2/tokens?networks=solana')).status).toBe(400);
  });

  it('liquidity and apy bounds (inclusive); maxApy defaults to 1e6; min > max is 400', async () => {
    const liq = all
      .map((t) => t.liquidity as number)
      .filter((l) => l > 0)
      .sort((a, b) => a - b);
    const lo = liq[Math.floor(liq.length / 4)]!;
    const hi = liq[Math.floor((liq.length * 3) / 4)]!;
    await expectFilter(`minLiquidity=${lo}`, (t) => t.liquidity >= lo);
    await expectFilter(`maxLiquidity=${hi}`, (t) => t.liquidity <= hi);
    await expectFilter(`minLiquidity=${lo}&maxLiquidity=${hi}`, (t) => t.liquidity >= lo && t.liquidity <= hi);
    // metric strings read back as the exact stored double, so a shown value is an inclusive bound
    const apys = [...new Set(all.map((t) => Number(t.metrics.apy)).filter((a) => a > 0))].sort((a, b) => a - b);
    const mid = apys[Math.floor(apys.length / 2)]!;
    await expectFilter(`minApy=${mid}`, (t) => Number(t.metrics.apy) >= mid);
    await expectFilter(`maxApy=${mid}`, (t) => Number(t.metrics.apy) <= mid);
    await expectFilter('maxApy=1000000', () => true, { proper: false });
    expect((await s.paid('/v2/tokens?minLiquidity=10&maxLiquidity=1')).status).toBe(400);
    expect((await s.paid('/v2/tokens?minLiquidity=-1')).status).toBe(400);
  });

  it('tags, isPortable and isVerified', async () => {
    const tagged = all.filter((t) => t.metadata.tags);
    if (tagged.length > 0) {
      const tag = String(tagged[0]!.metadata.tags).split(',')[0]!;
      await expectFilter(`tags=${tag},no-such-tag`, (t) => String(t.metadata.tags).split(',').includes(tag), { proper: false });
    }
    const none = await s.paid('/v2/tokens?tags=no-such-tag');
    expect(none.body.totalItems).toBe(0);
    await expectFilter('isPortable=true', (t) => t.isPortable === true);
    await expectFilter('isPortable=false', (t) => t.isPortable === false);
    await expectFilter('isVerified=true', (t) => t.metadata.verified === 'true');
    await expectFilter('isVerified=false', (t) => t.metadata.verified === 'false');
    expect((await s.paid('/v2/tokens?isPortable=maybe')).status).toBe(400);
  });

  it('filter types combine with AND', async () => {
    await expectFilter(
      'networks=base&platforms=uniswap-v2,uniswap-v3&isVerified=false',
      (t) => t.network === 'base' && ['uniswap-v2', 'uniswap-v3'].includes(t.platform) && t.metadata.verified === 'false',
    );
    await expectFilter(
      'networks=ethereum&isPortable=true&minLiquidity=0',
      (t) => t.network === 'ethereum' && t.isPortable && t.liquidity >= 0,
    );
  });

  it.each(
    Object.keys(SORTS).flatMap((k) => [
      [k, 'asc'],
      [k, 'desc'],
    ]),
  )('sortBy=%s sortDirection=%s orders by the returned values', async (sortBy, dir) => {
    const r = await s.paid(`/v2/tokens?limit=250&sortBy=${sortBy}&sortDirection=${dir}`);
    expect(r.status).toBe(200);
    const ts: Tok[] = r.body.tokens;
    expect(keys(ts)).toEqual(keys(all));
    const val = SORTS[sortBy]!;
    const bad: string[] = [];
    for (let i = 1; i < ts.length; i++) {
      const [a, b] = [val(ts[i - 1]!), val(ts[i]!)];
      const inOrder = dir === 'asc' ? a <= b : a >= b;
      if (!inOrder) bad.push(`${ts[i - 1]!.key}=${a} then ${ts[i]!.key}=${b}`);
    }
    expect(bad).toEqual([]);
  });

  it('sortBy with paging: consecutive pages continue the same order', async () => {
    const full = (await s.paid('/v2/tokens?limit=250&sortBy=liquidity&sortDirection=desc')).body.tokens.map((t: Tok) => t.key);
    const paged: string[] = [];
    for (let page = 0; page * 30 < full.length; page++)
      paged.push(
        ...(await s.paid(`/v2/tokens?limit=30&page=${page}&sortBy=liquidity&sortDirection=desc`)).body.tokens.map((t: Tok) => t.key),
      );
    expect(paged).toEqual(full);
  });

  it('unknown parameter, unknown sortBy and direction are 400 naming the parameter', async () => {
    for (const [qs, name] of [
      ['colour=red', 'colour'],
      ['sortBy=weight', 'sortBy'],
      ['sortDirection=up', 'sortDirection'],
    ] as const) {
      const r = await s.paid(`/v2/tokens?${qs}`);
      expect({ qs, status: r.status }).toEqual({ qs, status: 400 });
      expect(r.body.message).toContain(name);
    }
  });

  it('GET /v1/networks lists the indexed networks', async () => {
    const r = await s.paid('/v1/networks');
    expect(r.status).toBe(200);
    expect([...r.body].sort()).toEqual(['arbitrum', 'base', 'ethereum']);
  });

  it('GET /v2/platforms: a record per platform and network, covering every token platform; type filter', async () => {
    const r = await s.paid('/v2/platforms');
    expect(r.status).toBe(200);
    for (const p of r.body) expect(Object.keys(p).sort()).toEqual(['image', 'name', 'network', 'platform']);
    const have = new Set(r.body.map((p: Tok) => `${p.network}/${p.platform}`));
    expect([...new Set(all.map((t) => `${t.network}/${t.platform}`))].filter((x) => !have.has(x))).toEqual([]);
    const dex = await s.paid('/v2/platforms?type=dex');
    expect(dex.body.length).toBeGreaterThan(0);
    expect(dex.body.every((p: Tok) => !['native', 'basic', 'aave-v3', 'erc4626-vaults'].includes(p.platform))).toBe(true);
    const lending = await s.paid('/v2/platforms?type=lending');
    expect(lending.status).toBe(200);
    expect(lending.body.every((p: Tok) => p.platform === 'aave-v3')).toBe(true);
  });
});
