import { ChainReader, JsonRpcClient } from '@tokensvc/chain';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, testDevnet } from '@tokensvc/testing';
import { HealthServer } from '@tokensvc/transport';
import { RecordingDerivation } from '../testing/recording-derivation';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';
import type { NetworkStatus } from './network-position';

jest.setTimeout(120_000);

/** Backfill progress: the status read-out (as main.ts serves it on the health port's /status) and the log lines. */
describe('indexer backfill progress and /status', () => {
  const { rpcUrls, manifestPath } = testDevnet();
  const rpcUrl = rpcUrls.ethereum!;
  const dbUrl = createTestDatabaseUrl('ingest_progress');
  let t: TestIndexer | undefined;
  let health: HealthServer | undefined;

  beforeAll(async () => {
    await migrate(dbUrl);
  });

  afterAll(async () => {
    await t?.stop();
    await health?.close();
    await dropDatabase(dbUrl);
  });

  it('reports head, cursor, lag, rate and ETA while backfilling, then lag 0 and caught up', async () => {
    const head = await new ChainReader(new JsonRpcClient(rpcUrl)).blockNumber();
    // Small ranges, one per batch: the backfill takes many batches, so it is seen under way.
    t = startTestIndexer({
      network: 'ethereum',
      rpcUrl,
      databaseUrl: dbUrl,
      manifestPath,
      derive: new RecordingDerivation(),
      maxLogRange: 8,
      rangesPerBatch: 1,
      prefetch: 1,
      progressLogMs: 0,
    });
    const indexer = t.indexer;
    health = new HealthServer('indexer', {});
    health.addJsonRoute('/status', () => ({ networks: [indexer.status()] }));
    const port = await freePort();
    await health.listen(port, '127.0.0.1');
    const read = async (): Promise<NetworkStatus> =>
      ((await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as { networks: NetworkStatus[] }).networks[0]!;

    const seen: NetworkStatus[] = [];
    const deadline = Date.now() + 90_000;
    for (;;) {
      const s = await read();
      seen.push(s);
      if (s.lag === 0 && s.caughtUp) break;
      if (Date.now() > deadline) throw new Error(`not caught up: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 20));
    }

    const behind = seen.filter((s) => s.head !== null && s.cursor !== null && s.lag! > 0);
    expect(behind.length).toBeGreaterThan(0);
    for (const s of behind) {
      expect(s).toMatchObject({ network: 'ethereum', caughtUp: false, lag: s.head! - s.cursor!, blocksLeft: s.head! - s.cursor! });
      expect(s.percent).toBeLessThan(100);
    }
    // Once a few batches committed, a rate and so an ETA (blocks left / rate).
    const withRate = behind.filter((s) => s.blocksPerSecond > 0);
    expect(withRate.length).toBeGreaterThan(0);
    for (const s of withRate) {
      // blocksPerSecond is rounded to 0.1 in the read-out; the ETA comes from the exact rate.
      expect(s.etaSeconds).toBeGreaterThanOrEqual(Math.floor(s.lag! / (s.blocksPerSecond + 0.05)));
      expect(s.etaSeconds).toBeLessThanOrEqual(Math.ceil(s.lag! / Math.max(0.01, s.blocksPerSecond - 0.05)));
    }

    const last = seen.at(-1)!;
    expect(last).toMatchObject({ network: 'ethereum', lag: 0, blocksLeft: 0, etaSeconds: 0, percent: 100, caughtUp: true });
    expect(last.cursor).toBe(last.head);
    expect(last.head).toBeGreaterThanOrEqual(head);

    // The log: progress lines while behind (rate and ETA), then one "caught up".
    const logs = t.lines.filter((l): l is Record<string, unknown> => typeof l === 'object' && l !== null);
    const progress = logs.filter((l) => l['msg'] === 'backfill progress');
    expect(progress.length).toBeGreaterThan(0);
    for (const l of progress) {
      expect(l).toEqual({
        msg: 'backfill progress',
        network: 'ethereum',
        cursor: expect.any(Number),
        head: expect.any(Number),
        blocksLeft: expect.any(Number),
        blocksPerSecond: expect.any(Number),
        eventsPerSecond: expect.any(Number),
        etaSeconds: l['blocksPerSecond'] ? expect.any(Number) : null,
        percent: expect.any(Number),
      });
      expect(l['blocksLeft']).toBeGreaterThan(0);
    }
    expect(progress.some((l) => typeof l['etaSeconds'] === 'number' && (l['eventsPerSecond'] as number) > 0)).toBe(true);
    expect(logs.filter((l) => l['msg'] === 'caught up')).toHaveLength(1);
  });
});
