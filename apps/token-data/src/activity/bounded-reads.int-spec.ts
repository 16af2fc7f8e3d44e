/**
 * The token-data reads that had no bound (issue 16), on a real Postgres: the metrics flows are
 * summed in SQL per interval between window edges (a few dozen rows however many events; the
 * windows equal the ones computed from every event), an owner's indexed balances are read up to
 * MAX_ACCOUNT_BALANCES, and a holders page past MAX_HOLDERS_OFFSET is refused before any read.
 */
import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ChainProviders } from '@tokensvc/chain';
import { ErrorCode } from '@tokensvc/messages';
import { createDataSource, dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import { AccountUseCase, MAX_ACCOUNT_BALANCES } from '../account/account.usecase';
import { MAX_HOLDERS_OFFSET, TokenHoldersUseCase } from '../holders/holders.usecase';
import { ActivityRepository } from './activity.repository';
import { flowEdges, intervalMetrics, type FlowEvent } from './interval-metrics';

jest.setTimeout(120_000);

const TOKEN = 'ethereum:0x00000000000000000000000000000000000000aa';
const EVENTS = 5_000;

describe('bounded token-data reads (Postgres)', () => {
  const url = createTestDatabaseUrl('token_data_bounds');
  let ds: DataSource;

  beforeAll(async () => {
    await migrate(url);
    ds = createDataSource({ url, poolSize: 2 });
    await ds.initialize();
  });

  afterAll(async () => {
    await ds?.destroy();
    await dropDatabase(url);
  });

  it(`metrics flows: ${EVENTS} events over 5 days give the same eight windows from at most 60 summed rows (3 types × 2 directions × 10 intervals)`, async () => {
    const now = Date.UTC(2026, 10, 20, 12, 0, 0);
    const types = ['swap', 'deposit', 'withdraw', 'borrow'];
    const rows = Array.from({ length: EVENTS }, (_, i) => ({
      i,
      // whole seconds, as block times are; some in the future of `now` and before the 4 days
      timeMs: now - randomInt(0, 5 * 86_400) * 1000 + (i % 97 === 0 ? 60_000 : 0),
      type: types[i % types.length]!,
      direction: randomInt(0, 2),
      usd: randomInt(1, 1_000_000) / 100,
    }));
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      await ds.query(
        `INSERT INTO activities (network, block_number, log_index, token_key, tx_hash, time, type, direction, volume_usd)
         SELECT 'ethereum', n, 0, $1, '0x', t, ty, d, u FROM unnest($2::bigint[], $3::timestamptz[], $4::text[], $5::smallint[], $6::float8[]) AS x(n, t, ty, d, u)`,
        [
          TOKEN,
          chunk.map((r) => r.i),
          chunk.map((r) => new Date(r.timeMs)),
          chunk.map((r) => r.type),
          chunk.map((r) => r.direction),
          chunk.map((r) => r.usd),
        ],
      );
    }
    const buckets = await new ActivityRepository(ds).flowBuckets(TOKEN, flowEdges(now), now + 1);
    expect(flowEdges(now)).toHaveLength(10);
    expect(buckets.length).toBeLessThanOrEqual(3 * 2 * 10);
    expect(buckets.reduce((n, b) => n + (b.count ?? 1), 0)).toBeGreaterThan(EVENTS / 2);
    const raw: FlowEvent[] = rows.map((r) => ({ type: r.type, direction: r.direction, timeMs: r.timeMs, volumeUsd: r.usd }));
    const fromRows = intervalMetrics(raw, now);
    const fromBuckets = intervalMetrics(buckets, now);
    for (const [w, m] of Object.entries(fromRows)) {
      const b = fromBuckets[w]!;
      expect({
        w,
        eventCount: b.eventCount,
        swapCount: b.swapCount,
        swapBuyCount: b.swapBuyCount,
        swapSellCount: b.swapSellCount,
        depositCount: b.depositCount,
        withdrawCount: b.withdrawCount,
      }).toEqual({
        w,
        eventCount: m.eventCount,
        swapCount: m.swapCount,
        swapBuyCount: m.swapBuyCount,
        swapSellCount: m.swapSellCount,
        depositCount: m.depositCount,
        withdrawCount: m.withdrawCount,
      });
      for (const f of ['grossVolumeUsd', 'swapVolumeUsd', 'swapBuyVolumeUsd', 'netVolumeUsd'] as const)
        expect(Number(b[f])).toBeCloseTo(Number(m[f]), 4);
      expect(b.grossVolumeUsdChange).toBeCloseTo(m.grossVolumeUsdChange, 4);
    }
    expect(fromRows['2d']!.eventCount).toBeGreaterThan(1000);
  });

  it(`account: an owner with ${MAX_ACCOUNT_BALANCES + 200} indexed balances gets at most ${MAX_ACCOUNT_BALANCES}`, async () => {
    const owner = '0x00000000000000000000000000000000000000ee';
    const n = MAX_ACCOUNT_BALANCES + 200;
    const addresses = Array.from({ length: n }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
    await ds.query(
      `INSERT INTO tokens (key, network, address, platform, family, name, symbol, decimals, created_at)
       SELECT 'ethereum:' || a, 'ethereum', a, 'basic', 'erc20', 'Spam ' || a, 'SPAM', 18, now() FROM unnest($1::text[]) AS a`,
      [addresses],
    );
    await ds.query(
      `INSERT INTO balances (network, token, holder, balance, block_number) SELECT 'ethereum', a, $2, 1000, 1 FROM unnest($1::text[]) AS a`,
      [addresses, owner],
    );
    const account = new AccountUseCase(ds, { rpc: new Map() } as unknown as ChainProviders);
    const reply = await account.execute({ owner, networks: ['ethereum'] });
    expect(reply.balances).toHaveLength(MAX_ACCOUNT_BALANCES);
  });

  it(`holders: a page starting at rank ${MAX_HOLDERS_OFFSET} or beyond is 400 before any read`, async () => {
    const reads: string[] = [];
    const spy = { query: async (sql: string) => void reads.push(sql) } as unknown as DataSource;
    const holders = new TokenHoldersUseCase(spy);
    await expect(holders.execute({ id: TOKEN, limit: 1000, page: 10 })).rejects.toMatchObject({
      code: ErrorCode.ERROR_CODE_BAD_REQUEST,
      message: expect.stringContaining(`page × limit must stay below ${MAX_HOLDERS_OFFSET}`),
    });
    await expect(holders.execute({ id: TOKEN, limit: 100, page: 1_000_000 })).rejects.toMatchObject({
      code: ErrorCode.ERROR_CODE_BAD_REQUEST,
    });
    expect(reads).toEqual([]);
    // The last page inside the bound is served (from the real database) and says nothing more follows it.
    const real = new TokenHoldersUseCase(ds);
    const key = 'ethereum:0x0000000000000000000000000000000000000001';
    const last = await real.execute({ id: key, limit: 1000, page: 9 });
    expect(last).toMatchObject({ page: 9, more: false });
  });
});
