import { ChainReader, JsonRpcClient } from '@tokensvc/chain';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, testDevnet } from '@tokensvc/testing';
import { RecordingDerivation } from '../testing/recording-derivation';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';

jest.setTimeout(120_000);

/** One active writer per network: a second replica waits, takes over when the first goes, and stops writing when fenced out. */
describe('indexer lease (two replicas, one database)', () => {
  const { rpcUrls, manifestPath } = testDevnet();
  const rpcUrl = rpcUrls.ethereum!;
  const dbUrl = createTestDatabaseUrl('ingest_lease');
  const derives = [new RecordingDerivation(), new RecordingDerivation()];
  let a: TestIndexer;
  let b: TestIndexer;
  const texts = (t: TestIndexer): string[] => t.lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
  const waitFor = async (cond: () => boolean | Promise<boolean>, what: string): Promise<void> => {
    const deadline = Date.now() + 60_000;
    while (!(await cond())) {
      if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    await migrate(dbUrl);
  });

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await dropDatabase(dbUrl);
  });

  it('lets only the lease holder write; the other waits, takes over, and is fenced out when the lease is taken', async () => {
    const head = await new ChainReader(new JsonRpcClient(rpcUrl)).blockNumber();
    const common = { network: 'ethereum' as const, rpcUrl, databaseUrl: dbUrl, manifestPath, leaseTtlMs: 1500 };
    a = startTestIndexer({ ...common, derive: derives[0]!, instanceId: 'replica-a' });
    await waitFor(
      async () => (await a.pool.query(`SELECT 1 FROM indexer_leases WHERE holder = 'replica-a'`)).rowCount === 1,
      'replica a takes the lease',
    );
    b = startTestIndexer({ ...common, derive: derives[1]!, instanceId: 'replica-b' });
    await a.waitForCursor(head);
    await waitFor(() => texts(b).some((l) => l.includes('another replica holds the lease; waiting')), 'replica b waiting');
    expect(derives[1]!.batches).toEqual([]);
    // Warm: registry loaded, following the head and the leader's stored cursor (ready, not writing).
    await waitFor(() => texts(b).some((l) => l.includes('standby warm')) && b.indexer.cursorBlock === head, 'replica b warm');
    expect([a.indexer.status().role, b.indexer.status().role]).toEqual(['leader', 'standby']);
    expect(b.indexer.ready).toBe(true);

    // The holder goes away: the other one takes over (and has nothing left to index).
    await a.indexer.stop();
    await waitFor(() => texts(b).some((l) => l.includes('lease acquired')), 'replica b takes over');
    await b.waitForCursor(head);
    expect(derives[1]!.batches).toEqual([]);
    expect(b.indexer.status().role).toBe('leader');

    // Someone else takes the lease: b notices at its next renewal and stops writing.
    await b.pool.query(`UPDATE indexer_leases SET holder = 'intruder', expires_at = now() + interval '1 hour' WHERE network = 'ethereum'`);
    await waitFor(() => texts(b).some((l) => l.includes('lease lost to another replica')), 'replica b fenced out');
    expect(derives[0]!.batches.at(-1)!.toBlock).toBe(head);
  });
});
