/**
 * GET /v2/account, /v2/tokens/history, /v3/tokens/transactions, /v3/tokens/metrics and
 * /v2/tokens/holders through the gateway over data the indexer built from the shared devnet;
 * balances are checked against the chain (eth_call balanceOf / eth_getBalance, read-only) and
 * counts against SQL over the read models.
 */
import { readFileSync } from 'node:fs';
import { RPC } from '@tokensvc/messages';
import * as testing from '@tokensvc/testing';
import { NatsRpcClient } from '@tokensvc/transport';
import { gatewayAccount, gatewayHistory } from './gateway-mapping';
import { balanceOf, ethBalance, startDataSurface, type DataSurface } from './harness';
import { shapeProblems, tokenProblems } from './token-shape';

type Rec = Record<string, any>;
const NATIVE = '0x0000000000000000000000000000000000000000';
const HISTORY_FIELDS: Record<string, string> = {
  time: 'date',
  highPrice: 'decimal',
  lowPrice: 'decimal',
  openPrice: 'decimal',
  closePrice: 'decimal',
  liquidity: 'decimal',
  reserves: 'string[]',
  totalSupply: 'uint',
  totalBorrow: 'uint',
  circulatingSupply: 'uint',
  pricePerShare: 'decimal',
  volume1dUsd: 'decimal',
  apy: 'decimal',
  baseApy: 'decimal',
  rewardApy: 'decimal',
  borrowApy: 'decimal',
  baseBorrowApy: 'decimal',
  trendingScore: 'number',
  block: 'block',
};
const SWAP_FIELDS: Record<string, string> = {
  type: 'string',
  inputAmount: 'uint',
  inputToken: 'string',
  inputTokenAmountUsd: 'decimal',
  outputAmount: 'uint',
  outputToken: 'string',
  outputTokenAmountUsd: 'decimal',
  transactionHash: 'string',
  time: 'date',
  direction: 'number',
};
const FLOW_FIELDS: Record<string, string> = { type: 'string', amounts: 'object[]', transactionHash: 'string', time: 'date' };
const METRIC_FIELDS: Record<string, string> = Object.fromEntries([
  ...['netVolumeUsd', 'grossVolumeUsd', 'depositVolumeUsd', 'withdrawVolumeUsd', 'swapVolumeUsd', 'swapBuyVolumeUsd'].map((f) => [
    f,
    'decimal',
  ]),
  ...[
    'grossVolumeUsdChange',
    'swapVolumeUsdChange',
    'eventCount',
    'swapCount',
    'swapBuyCount',
    'swapSellCount',
    'depositCount',
    'withdrawCount',
  ].map((f) => [f, 'number']),
]);
const WINDOWS: Array<[string, number]> = [
  ['15m', 900],
  ['30m', 1800],
  ['1h', 3600],
  ['2h', 7200],
  ['4h', 14400],
  ['8h', 28800],
  ['1d', 86400],
  ['2d', 172800],
];
/** page size of the cursor walk: the devnet has ~20 activities per busy token per 24 h */
const WALK = 4;
const RES: Record<string, number> = { '15m': 900, '30m': 1800, '1h': 3600, '4h': 14400, '1d': 86400 };

function activityProblems(a: Rec): string[] {
  if (a.type === 'swap') return shapeProblems(a, SWAP_FIELDS, `swap ${a.transactionHash}`);
  const position = a.type === 'borrow' || a.type === 'repay';
  if (!position && a.type !== 'deposit' && a.type !== 'withdraw') return [`unknown type ${a.type}`];
  const out = shapeProblems({ ...a, amounts: {} }, { ...FLOW_FIELDS, amounts: 'object' }, `${a.type} ${a.transactionHash}`);
  if (!Array.isArray(a.amounts) || a.amounts.length === 0) out.push(`${a.type} ${a.transactionHash}: no amounts`);
  const amountFields: Record<string, string> = {
    key: 'string',
    symbol: 'string',
    amount: 'uint',
    amountUsd: 'decimal',
    ...(position ? { account: 'string' } : {}),
  };
  for (const x of a.amounts ?? []) out.push(...shapeProblems(x, amountFields, `${a.type} ${a.transactionHash} amount`));
  return out;
}

describe('token detail endpoints over indexed devnet data', () => {
  let s: DataSurface;
  const logs: string[] = [];
  let manifest: Rec;
  let tokens: Rec[] = [];
  const key = (network: string, address: string): string => `${network}:${address.toLowerCase()}`;
  const chainNow = async (network: string): Promise<number> => {
    const { rows } = await s.pool.query<{ t: number }>(
      `SELECT extract(epoch FROM b.time)::int AS t FROM index_cursors c JOIN blocks b ON b.network = c.network AND b.number = c.block_number WHERE c.network = $1`,
      [network],
    );
    return rows[0]!.t;
  };
  /** the platform token of a family with the most activities of `types` in the last 24 h */
  const busiest = async (platform: string, types: string[]): Promise<string> => {
    const { rows } = await s.pool.query<{ token_key: string }>(
      `SELECT a.token_key FROM activities a JOIN tokens t ON t.key = a.token_key
        JOIN index_cursors c ON c.network = a.network JOIN blocks b ON b.network = c.network AND b.number = c.block_number
        WHERE t.platform = $1 AND a.type = ANY($2) AND a.time >= b.time - interval '24 hours'
        GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
      [platform, types],
    );
    if (!rows[0]) throw new Error(`no ${platform} token with ${types.join('/')} activity in the last 24 h`);
    return rows[0].token_key;
  };

  beforeAll(async () => {
    const t = Date.now();
    s = await startDataSurface(testing, 'td_detail', (l) => logs.push(l));
    process.stdout.write(`data surface ready in ${Date.now() - t} ms\n`);
    manifest = JSON.parse(readFileSync(s.manifestPath, 'utf8'));
    tokens = (await s.paid('/v2/tokens?limit=250')).body.tokens;
  }, 300_000);
  afterAll(async () => {
    await s?.stop();
    const errors = logs.filter((l) => /"level":"(error|fatal)"/.test(l));
    if (errors.length) process.stdout.write(`app errors:\n${errors.slice(0, 20).join('\n')}\n`);
  });
  const net = (n: string): Rec => manifest.networks.find((x: Rec) => x.network === n);
  const weth = (n: string): string => key(n, net(n).weth);

  describe('GET /v2/account', () => {
    it('a devnet trader: every balance equals the chain (balanceOf / eth_getBalance), priced, non-zero, on the asked networks', async () => {
      const owner: string = net('ethereum').accounts.traders[0];
      const r = await s.paid(`/v2/account?owner=${owner}&networks=ethereum&networks=base`);
      expect(r.status).toBe(200);
      expect(r.body.totalQueried).toBe(2);
      const balances: Rec[] = r.body.balances;
      expect(balances.length).toBeGreaterThan(2);
      expect(balances.flatMap((b) => tokenProblems(b, true, { balance: 'number', balanceUSD: 'number', rawBalance: 'uint' }))).toEqual([]);
      const mismatches: string[] = [];
      for (const b of balances) {
        expect(['ethereum', 'base']).toContain(b.network);
        const url = s.rpcUrls[b.network]!;
        const chain = b.address === NATIVE ? BigInt(await ethBalance(url, owner)).toString() : await balanceOf(url, b.address, owner);
        if (chain !== b.rawBalance) mismatches.push(`${b.key} (${b.platform}) api ${b.rawBalance} chain ${chain}`);
        expect(BigInt(b.rawBalance)).toBeGreaterThan(0n);
        expect(b.balance).toBeCloseTo(Number(b.rawBalance) / 10 ** b.decimals, 6);
        expect(Math.abs(b.balanceUSD - b.balance * b.price)).toBeLessThanOrEqual(1e-9 * Math.max(1, b.balanceUSD));
      }
      expect(mismatches).toEqual([]);
      expect(balances.some((b) => b.address === NATIVE)).toBe(true);
    });

    it('free key: the same balances without the paid metrics; both bodies are the gateway mapping of the reply message, byte for byte', async () => {
      const owner: string = net('ethereum').accounts.traders[0];
      const path = `/v2/account?owner=${owner}&networks=ethereum&networks=base`;
      const [paid, free] = [await s.paid(path), await s.free(path)];
      expect(free.status).toBe(200);
      expect(
        free.body.balances.flatMap((b: Rec) => tokenProblems(b, false, { balance: 'number', balanceUSD: 'number', rawBalance: 'uint' })),
      ).toEqual([]);
      expect(free.body.balances.map((b: Rec) => [b.key, b.rawBalance])).toEqual(paid.body.balances.map((b: Rec) => [b.key, b.rawBalance]));
      const rpc = new NatsRpcClient(s.natsUrl, 10_000, 'e2e-account-bodies');
      await rpc.start();
      try {
        const reply = await rpc.call(RPC.account, { owner, networks: ['ethereum', 'base'] });
        expect(reply.balances.length).toBeGreaterThan(2);
        expect(JSON.stringify(paid.body)).toBe(gatewayAccount(reply, 'paid'));
        expect(JSON.stringify(free.body)).toBe(gatewayAccount(reply, 'free'));
      } finally {
        await rpc.close();
      }
    });

    it('no listed token with a non-zero balanceOf is missing', async () => {
      const owner: string = net('base').accounts.traders[1];
      const r = await s.paid(`/v2/account?owner=${owner.toLowerCase()}&networks=base`);
      const have = new Set(r.body.balances.map((b: Rec) => b.key));
      const missing: string[] = [];
      for (const t of tokens.filter((x) => x.network === 'base' && x.platform === 'basic')) {
        if ((await balanceOf(s.rpcUrls['base']!, t.address, owner)) !== '0' && !have.has(t.key)) missing.push(t.key);
      }
      expect(missing).toEqual([]);
    });

    it('limit/page are ignored; owner and networks are validated', async () => {
      const owner: string = net('ethereum').accounts.traders[0];
      const a = await s.paid(`/v2/account?owner=${owner}&networks=ethereum`);
      const b = await s.paid(`/v2/account?owner=${owner}&networks=ethereum&limit=1&page=3`);
      expect(b.status).toBe(200);
      expect(b.body.balances.map((x: Rec) => x.key)).toEqual(a.body.balances.map((x: Rec) => x.key));
      expect((await s.paid(`/v2/account?owner=0x1234&networks=ethereum`)).status).toBe(400);
      expect((await s.paid(`/v2/account?owner=${owner}&networks=solana`)).status).toBe(400);
      expect((await s.paid(`/v2/account?networks=ethereum`)).status).toBe(400);
      const empty = await s.paid(`/v2/account?owner=0x00000000000000000000000000000000000000aa&networks=arbitrum`);
      expect(empty.body).toEqual({ totalQueried: 1, balances: [] });
    });
  });

  describe('GET /v2/tokens/history', () => {
    it('the body token-data encodes is, byte for byte, the reply message as the gateway sent it', async () => {
      const id = weth('ethereum');
      const from = (await chainNow('ethereum')) - 3 * 86400;
      const rpc = new NatsRpcClient(s.natsUrl, 10_000, 'e2e-history-bodies');
      await rpc.start();
      try {
        const reply = await rpc.call(RPC.tokenHistory, { id, from: String(from), page: 0, resolution: '1h' });
        expect(reply.history.length).toBeGreaterThan(10);
        expect(JSON.stringify((await s.paid(`/v2/tokens/history?id=${id}&resolution=1h&from=${from}`)).body)).toBe(gatewayHistory(reply));
      } finally {
        await rpc.close();
      }
    });

    it('every resolution: aligned candles of that size from the bucket of `from`, every field, OHLC consistent', async () => {
      const id = weth('ethereum');
      const now = await chainNow('ethereum');
      for (const [res, size] of Object.entries(RES)) {
        const from = now - 3 * 86400 + 123;
        const r = await s.paid(`/v2/tokens/history?id=${id}&resolution=${res}&from=${from}`);
        expect({ res, status: r.status }).toEqual({ res, status: 200 });
        const h: Rec[] = r.body.history;
        expect(h.length).toBeGreaterThan(0);
        expect(r.body.pageItems).toBe(h.length);
        const problems = h.flatMap((e) => shapeProblems(e, HISTORY_FIELDS, `${res} ${e.time}`));
        expect(problems).toEqual([]);
        const start = Math.floor(from / size) * size;
        for (const [i, e] of h.entries()) {
          const t = Date.parse(e.time) / 1000;
          expect(t % size).toBe(0);
          expect(t).toBeGreaterThanOrEqual(start);
          if (i > 0) expect(t).toBeGreaterThan(Date.parse(h[i - 1]!.time) / 1000);
          const [o, hi, lo, c] = [e.openPrice, e.highPrice, e.lowPrice, e.closePrice].map(Number) as [number, number, number, number];
          expect({ res, t: e.time, ok: lo <= o && lo <= c && o <= hi && c <= hi && lo > 0 }).toEqual({ res, t: e.time, ok: true });
        }
        const { rows } = await s.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM candles WHERE token_key = $1 AND resolution = $2 AND bucket >= to_timestamp($3)`,
          [id, res, start],
        );
        expect(Number(r.body.totalItems)).toBe(rows[0]!.n);
      }
    });

    it('`from` is truncated to its bucket: two values in one bucket give identical answers', async () => {
      const id = weth('base');
      // an hour that has a candle (an hour without any price change has none)
      const { rows } = await s.pool.query<{ b: string }>(
        `SELECT extract(epoch FROM bucket)::bigint::text AS b FROM candles WHERE token_key = $1 AND resolution = '1h' ORDER BY bucket DESC OFFSET 3 LIMIT 1`,
        [id],
      );
      const bucket = Number(rows[0]!.b);
      const a = await s.paid(`/v2/tokens/history?id=${id}&resolution=1h&from=${bucket + 1}`);
      const b = await s.paid(`/v2/tokens/history?id=${id}&resolution=1h&from=${bucket + 3599}`);
      expect(a.status).toBe(200);
      expect(a.body.history[0].time).toBe(new Date(bucket * 1000).toISOString());
      expect(b.body).toEqual(a.body);
    });

    it('default: resolution 1d from 24 h before the latest indexed block; paging with totalItems stable', async () => {
      const id = weth('arbitrum');
      const now = await chainNow('arbitrum');
      const d = await s.paid(`/v2/tokens/history?id=${id}`);
      expect(d.status).toBe(200);
      expect(d.body).toEqual((await s.paid(`/v2/tokens/history?id=${id}&resolution=1d&from=${now - 86400}`)).body);
      const from = now - 20 * 86400;
      const p0 = await s.paid(`/v2/tokens/history?id=${id}&resolution=1h&from=${from}`);
      const total = Number(p0.body.totalItems);
      expect(total).toBeGreaterThan(p0.body.pageItems);
      expect(p0.body.more).toBe(true);
      const all: string[] = [];
      let page = 0;
      for (;;) {
        const r = await s.paid(`/v2/tokens/history?id=${id}&resolution=1h&from=${from}&page=${page}`);
        expect(Number(r.body.totalItems)).toBe(total);
        expect(r.body.page).toBe(page);
        all.push(...r.body.history.map((e: Rec) => e.time));
        if (!r.body.more) break;
        page++;
      }
      expect(all).toHaveLength(total);
      expect(new Set(all).size).toBe(total);
      const past = await s.paid(`/v2/tokens/history?id=${id}&resolution=1h&from=${from}&page=${page + 1}`);
      expect(past.body).toMatchObject({ pageItems: 0, more: false, history: [] });
      expect(Number(past.body.totalItems)).toBe(total);
    });

    it('400s: older than one year (spec message), future, bad resolution, unknown parameter; unknown token 404', async () => {
      const id = weth('ethereum');
      const wall = Math.floor(Date.now() / 1000);
      const old = await s.paid(`/v2/tokens/history?id=${id}&from=${wall - 366 * 86400}`);
      expect(old.status).toBe(400);
      expect(old.body.message).toMatch(/timestamp is not valid.*newer than one year ago/);
      const fut = await s.paid(`/v2/tokens/history?id=${id}&from=${wall + 3600}`);
      expect(fut.status).toBe(400);
      expect(fut.body.message).toMatch(/from/);
      expect((await s.paid(`/v2/tokens/history?id=${id}&resolution=2h`)).status).toBe(400);
      expect((await s.paid(`/v2/tokens/history?id=${id}&x=1`)).status).toBe(400);
      expect((await s.paid(`/v2/tokens/history`)).status).toBe(400);
      expect((await s.paid(`/v2/tokens/history?id=ethereum:0x00000000000000000000000000000000000000ff`)).status).toBe(404);
      const upper = await s.paid(`/v2/tokens/history?id=${id.replace(/0x(.*)/, (_m, h: string) => `0x${h.toUpperCase()}`)}`);
      expect(upper.status).toBe(200);
    });
  });

  describe('GET /v3/tokens/transactions', () => {
    it('cursor walk to the end: newest first, no duplicates, endCursor null at the end, count equals SQL over 24 h', async () => {
      const id = await busiest('uniswap-v2', ['swap', 'deposit', 'withdraw']);
      const network = id.split(':')[0]!;
      const now = await chainNow(network);
      const { rows } = await s.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM activities WHERE token_key = $1 AND time >= to_timestamp($2)`,
        [id, now - 86400],
      );
      const seen: Rec[] = [];
      let cursor: string | undefined;
      let pages = 0;
      for (;;) {
        const r = await s.paid(`/v3/tokens/transactions?id=${id}&limit=${WALK}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(r.status).toBe(200);
        pages++;
        seen.push(...r.body.activities);
        if (!r.body.pageInfo.hasNextPage) {
          expect(r.body.pageInfo.endCursor).toBeNull();
          break;
        }
        expect(r.body.activities).toHaveLength(WALK);
        cursor = r.body.pageInfo.endCursor;
        expect(typeof cursor).toBe('string');
      }
      expect(rows[0]!.n).toBeGreaterThan(3 * WALK);
      expect(seen).toHaveLength(rows[0]!.n);
      // hasNextPage is exact (no empty last page when the count is a multiple of the page size: seen in a full run)
      expect(pages).toBe(Math.ceil(rows[0]!.n / WALK));
      const one = await s.paid(`/v3/tokens/transactions?id=${id}&limit=50`);
      expect(one.body.activities).toEqual(seen.slice(0, 50));
      expect(one.body.pageInfo).toEqual(
        rows[0]!.n > 50 ? { hasNextPage: true, endCursor: expect.any(String) } : { hasNextPage: false, endCursor: null },
      );
      const ids = seen.map((a) => `${a.transactionHash}/${a.type}/${JSON.stringify(a.amounts ?? a.inputAmount)}`);
      expect(new Set(ids).size).toBe(ids.length);
      for (let i = 1; i < seen.length; i++) expect(Date.parse(seen[i - 1]!.time)).toBeGreaterThanOrEqual(Date.parse(seen[i]!.time));
      expect(Date.parse(seen[seen.length - 1]!.time) / 1000).toBeGreaterThanOrEqual(now - 86400);
      expect(seen.flatMap(activityProblems)).toEqual([]);
      expect(seen.some((a) => a.type === 'swap')).toBe(true);
      expect(seen.every((a) => ['swap', 'deposit', 'withdraw'].includes(a.type))).toBe(true);
    });

    it('limit default 25, max 50; bad cursor 400; daily aggregates keyed YYYY-MM-DD', async () => {
      const id = await busiest('uniswap-v2', ['swap']);
      const now = await chainNow(id.split(':')[0]!);
      const {
        rows: [n],
      } = await s.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM activities WHERE token_key = $1 AND time >= to_timestamp($2)`, [
        id,
        now - 86400,
      ]);
      const d = await s.paid(`/v3/tokens/transactions?id=${id}`);
      expect(d.body.activities).toHaveLength(Math.min(25, n!.n));
      expect(d.body.pageInfo.hasNextPage).toBe(n!.n > 25);
      const big = await s.paid(`/v3/tokens/transactions?id=${id}&limit=51`);
      expect(big.status).toBe(400);
      expect(big.body.message).toMatch(/limit/);
      expect((await s.paid(`/v3/tokens/transactions?id=${id}&limit=0`)).status).toBe(400);
      const bad = await s.paid(`/v3/tokens/transactions?id=${id}&cursor=bm90LWEtY3Vyc29y`);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/cursor/);
      const days = Object.keys(d.body.dailyVolumes);
      expect(days.length).toBeGreaterThan(0);
      for (const day of days) {
        expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(
          shapeProblems(d.body.dailyVolumes[day], { grossVolumeRaw: 'uint', grossVolumeUsd: 'decimal', eventCount: 'number' }, day),
        ).toEqual([]);
        const { rows } = await s.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM activities WHERE token_key = $1 AND type IN ('swap','deposit','withdraw') AND to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD') = $2`,
          [id, day],
        );
        expect({ day, n: d.body.dailyVolumes[day].eventCount }).toEqual({ day, n: rows[0]!.n });
      }
    });

    it('lending market: borrow/repay position records with account, dailyDebtFlow', async () => {
      const id = await busiest('aave-v3', ['borrow', 'repay']);
      const seen: Rec[] = [];
      let cursor: string | undefined;
      do {
        const r = await s.paid(`/v3/tokens/transactions?id=${id}&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...r.body.activities);
        cursor = r.body.pageInfo.endCursor ?? undefined;
        if (!cursor) {
          const days = Object.entries(r.body.dailyDebtFlow ?? {});
          expect(days.length).toBeGreaterThan(0);
          for (const [day, v] of days) {
            expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
            expect(
              shapeProblems(v as Rec, { grossDebtFlowRaw: 'uint', grossDebtFlowUsd: 'decimal', debtEventCount: 'number' }, day),
            ).toEqual([]);
          }
        }
      } while (cursor);
      expect(seen.flatMap(activityProblems)).toEqual([]);
      const positions = seen.filter((a) => a.type === 'borrow' || a.type === 'repay');
      expect(positions.length).toBeGreaterThan(0);
      for (const p of positions) for (const a of p.amounts) expect(a.account).toMatch(/^0x[0-9a-f]{40}$/);
    });

    it('basic and native tokens are 400 with the spec message; unknown token 404', async () => {
      for (const id of [weth('ethereum'), key('base', NATIVE)]) {
        for (const path of ['/v3/tokens/transactions', '/v3/tokens/metrics']) {
          const r = await s.paid(`${path}?id=${id}`);
          expect({ path, id, status: r.status, message: r.body.message }).toEqual({
            path,
            id,
            status: 400,
            message: 'Transactions are not supported for basic and native tokens',
          });
        }
      }
      expect((await s.paid('/v3/tokens/transactions?id=base:0x00000000000000000000000000000000000000ff')).status).toBe(404);
      expect((await s.paid('/v3/tokens/metrics?id=base:0x00000000000000000000000000000000000000ff')).status).toBe(404);
    });
  });

  describe('GET /v3/tokens/metrics', () => {
    it('the eight windows with every field; counts and volumes equal SQL over `activities`', async () => {
      const id = await busiest('uniswap-v2', ['swap']);
      const network = id.split(':')[0]!;
      const now = await chainNow(network);
      const r = await s.paid(`/v3/tokens/metrics?id=${id}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(WINDOWS.map(([w]) => w).sort());
      for (const [w, secs] of WINDOWS) {
        const m = r.body[w];
        expect(shapeProblems(m, METRIC_FIELDS, w)).toEqual([]);
        const { rows } = await s.pool.query<Rec>(
          `SELECT count(*) FILTER (WHERE type = 'swap')::int AS swaps, count(*) FILTER (WHERE type = 'swap' AND direction = 1)::int AS buys,
                  count(*) FILTER (WHERE type = 'deposit')::int AS deposits, count(*) FILTER (WHERE type = 'withdraw')::int AS withdraws,
                  coalesce(sum(volume_usd) FILTER (WHERE type = 'swap'), 0) AS swap_usd
             FROM activities WHERE token_key = $1 AND time >= to_timestamp($2) AND time <= to_timestamp($3)`,
          [id, now - secs, now],
        );
        const x = rows[0]!;
        expect({
          w,
          eventCount: m.eventCount,
          swapCount: m.swapCount,
          swapBuyCount: m.swapBuyCount,
          swapSellCount: m.swapSellCount,
          depositCount: m.depositCount,
          withdrawCount: m.withdrawCount,
        }).toEqual({
          w,
          eventCount: x.swaps + x.deposits + x.withdraws,
          swapCount: x.swaps,
          swapBuyCount: x.buys,
          swapSellCount: x.swaps - x.buys,
          depositCount: x.deposits,
          withdrawCount: x.withdraws,
        });
        expect(Number(m.swapVolumeUsd)).toBeCloseTo(x.swap_usd, 4);
      }
      expect(r.body['2d'].eventCount).toBeGreaterThan(0);
    });
  });

  describe('GET /v2/tokens/holders', () => {
    it('limit default 100, min 100, max 1000; sorted by balance desc; balances equal balanceOf; percentages sum <= 100', async () => {
      const id = weth('ethereum');
      const t = tokens.find((x) => x.key === id)!;
      const r = await s.paid(`/v2/tokens/holders?id=${id}`);
      expect(r.status).toBe(200);
      const holders: Rec[] = r.body.holders;
      expect(holders.length).toBe(Math.min(100, r.body.totalItems));
      expect(r.body).toMatchObject({ pageItems: holders.length, page: 0, more: r.body.totalItems > 100 });
      expect(r.body.totalSupply).toBeCloseTo(Number(t.totalSupply) / 10 ** t.decimals, 6);
      for (const h of holders)
        expect(
          shapeProblems(
            h,
            { address: 'string', balance: 'number', rawBalance: 'uint', balanceUsd: 'number', percentage: 'number' },
            h.address,
          ),
        ).toEqual([]);
      const unordered = holders
        .slice(1)
        .filter((h, i) => BigInt(holders[i]!.rawBalance) < BigInt(h.rawBalance))
        .map((h) => `${h.address} ${h.rawBalance}`);
      expect({ unordered, first: holders.slice(0, 3).map((h) => h.rawBalance) }).toEqual({ unordered: [], first: expect.anything() });
      const mismatches: string[] = [];
      for (const h of holders.slice(0, 15)) {
        const chain = await balanceOf(s.rpcUrls['ethereum']!, t.address, h.address);
        if (chain !== h.rawBalance) mismatches.push(`${h.address} api ${h.rawBalance} chain ${chain}`);
      }
      expect(mismatches).toEqual([]);
      const sum = holders.reduce((a, h) => a + h.percentage, 0);
      expect(sum).toBeGreaterThan(0);
      expect(sum).toBeLessThanOrEqual(100 + 1e-6);
      for (const bad of ['limit=99', 'limit=1001', 'page=1', 'limit=100&page=-1']) {
        const b = await s.paid(`/v2/tokens/holders?id=${id}&${bad}`);
        expect({ bad, status: b.status }).toEqual({ bad, status: 400 });
      }
      expect((await s.paid(`/v2/tokens/holders?id=${id}&limit=99`)).body.message).toMatch(/limit/);
    });

    it('pages of 100 tile the full list (the largest list, matching SQL); past the end is empty', async () => {
      const {
        rows: [top],
      } = await s.pool.query<{ key: string }>(
        `SELECT t.key FROM balances b JOIN tokens t ON t.network = b.network AND t.address = b.token WHERE b.balance > 0 AND t.platform <> 'native'
          GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
      );
      const id = top!.key;
      const full = await s.paid(`/v2/tokens/holders?id=${id}&limit=1000`);
      const total: number = full.body.totalItems;
      expect(total).toBe(full.body.holders.length);
      const { rows } = await s.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM balances WHERE network = $1 AND token = $2 AND balance > 0`,
        [id.split(':')[0], id.split(':')[1]],
      );
      expect(total).toBe(rows[0]!.n);
      // the devnet's largest holder list has < 200 entries: pages of the minimum size 100
      expect(total).toBeGreaterThan(50);
      const tiled: string[] = [];
      for (let page = 0; page * 100 < total; page++)
        tiled.push(...(await s.paid(`/v2/tokens/holders?id=${id}&limit=100&page=${page}`)).body.holders.map((h: Rec) => h.address));
      expect(tiled).toEqual(full.body.holders.map((h: Rec) => h.address));
      const p = await s.paid(`/v2/tokens/holders?id=${id}&limit=100&page=${Math.ceil(total / 100)}`);
      expect(p.body).toMatchObject({ totalItems: total, pageItems: 0, more: false, holders: [] });
      const sum = full.body.holders.reduce((a: number, h: Rec) => a + h.percentage, 0);
      expect(sum).toBeLessThanOrEqual(100 + 1e-6);
    });
  });
});
