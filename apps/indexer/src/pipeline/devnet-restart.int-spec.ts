import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { JsonRpcClient } from '@tokensvc/chain';
import type { CommonConfig } from '@tokensvc/config';
import { LIVE_DIR, MANIFEST_FILE, resetDevnet, startDevnet, TEST_ACCOUNTS, type DevnetHandle, type DevnetManifest } from '@tokensvc/devnet';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, testDevnet } from '@tokensvc/testing';
import { Deriver } from '../derive';
import { send, txs } from '../testing/activity';
import { DERIVED_TABLES, differingTables, normaliseFloats, RAW_TABLES, snapshotTables } from '../testing/db-snapshot';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';

jest.setTimeout(300_000);

/**
 * What `npm start` does with the devnet across Ctrl-C and a new `npm start`, at the library level
 * (the devnet as startDevnet runs it with keepState, the indexer in-process on one database):
 * the second start goes on with the chain of the first (same tip, same hash), and the data
 * indexed before the stop is that chain's: no rollback, and equal to a fresh index. Then
 * `npm run devnet -- reset` forgets the kept chain.
 */
describe('devnet kept across a stop and a start (npm start), with the indexer', () => {
  const { manifestPath } = testDevnet();
  const stateDir = mkdtempSync(join(tmpdir(), 'tokensvc-keep-'));
  const dbUrl = createTestDatabaseUrl('devnet_restart');
  let devnet: DevnetHandle | undefined;
  let ti: TestIndexer | undefined;

  beforeAll(async () => {
    // The saved build of the test devnet (ethereum only), in a folder of this test's own.
    copyFileSync(manifestPath, join(stateDir, MANIFEST_FILE));
    copyFileSync(join(dirname(manifestPath), 'ethereum.state.json'), join(stateDir, 'ethereum.state.json'));
    await migrate(dbUrl);
  });

  afterAll(async () => {
    await ti?.stop();
    await devnet?.stop();
    await dropDatabase(dbUrl);
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('starts again on the chain it stopped with, and the indexed data equals it', async () => {
    const net = (JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest).networks.find((n) => n.network === 'ethereum')!;
    const usdc = net.tokens.find((t) => t.symbol === 'USDC')!.address.toLowerCase();
    const [alice, bob] = TEST_ACCOUNTS.map((a) => a.address.toLowerCase());
    const port = await freePort();
    const lines: string[] = [];
    const start = (): Promise<DevnetHandle> =>
      startDevnet({ networks: ['ethereum'], basePort: port, stateDir, keepState: true, log: (l) => lines.push(l) });
    const deriver = (rpcUrl: string): Deriver => new Deriver({ networks: [{ network: 'ethereum', rpcUrl }] } as unknown as CommonConfig);
    const index = (url: string, rpcUrl: string): TestIndexer =>
      startTestIndexer({
        network: 'ethereum',
        rpcUrl,
        databaseUrl: url,
        manifestPath: join(stateDir, MANIFEST_FILE),
        derive: deriver(rpcUrl),
        finalityDepth: 4,
      });
    const tip = async (rpc: JsonRpcClient): Promise<{ number: number; hash: string }> => {
      const b = await rpc.call<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
      return { number: parseInt(b.number, 16), hash: b.hash };
    };
    const waitForTip = async (indexer: TestIndexer, rpc: JsonRpcClient): Promise<void> => {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const [t, [c]] = [
          await tip(rpc),
          (await indexer.pool.query(`SELECT block_number, block_hash FROM index_cursors WHERE network = 'ethereum'`)).rows as Array<{
            block_number: string;
            block_hash: string;
          }>,
        ];
        if (c && Number(c.block_number) === t.number && c.block_hash === t.hash) return;
        if (Date.now() > deadline)
          throw new Error(`indexer not at the tip ${t.number}: ${JSON.stringify(c)}; ${JSON.stringify(indexer.lines.slice(-3))}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    // First run: trades on the chain, indexed.
    devnet = await start();
    let rpc = new JsonRpcClient(devnet.rpcUrls['ethereum']!);
    const built = await tip(rpc);
    ti = index(dbUrl, devnet.rpcUrls['ethereum']!);
    for (let i = 1; i <= 4; i++) await send(rpc, txs.transfer(alice!, usdc, bob!, 1_000_000n * BigInt(i)));
    await waitForTip(ti, rpc);
    const before = await tip(rpc);
    expect(before.number).toBe(built.number + 4);
    await ti.stop();
    ti = undefined;
    await devnet.stop();
    devnet = undefined;

    // Second run: the chain goes on where it stopped.
    const t0 = Date.now();
    devnet = await start();
    const restartMs = Date.now() - t0;
    rpc = new JsonRpcClient(devnet.rpcUrls['ethereum']!);
    expect(await tip(rpc)).toEqual(before);
    expect(lines).toContain(`ethereum: chain kept from the last run (${join(stateDir, LIVE_DIR, 'ethereum.state.json')})`);
    ti = index(dbUrl, devnet.rpcUrls['ethereum']!);
    await send(rpc, txs.transfer(bob!, usdc, alice!, 777n));
    await waitForTip(ti, rpc);
    process.stdout.write(`devnet restarted on its kept chain in ${restartMs} ms (tip ${before.number})\n`);
    // Nothing indexed before the stop had to be undone.
    expect(
      ti.lines.filter(
        (l) =>
          typeof l === 'object' &&
          l !== null &&
          ('depth' in l || (l as { msg?: string }).msg === 'chain below the indexed data; rolling back now'),
      ),
    ).toEqual([]);

    const freshUrl = createTestDatabaseUrl('devnet_restart_fresh');
    await migrate(freshUrl);
    const fresh = index(freshUrl, devnet.rpcUrls['ethereum']!);
    try {
      await waitForTip(fresh, rpc);
      const tables = { ...RAW_TABLES, ...DERIVED_TABLES };
      const [kept, reference] = [await snapshotTables(ti.pool, 'ethereum', tables), await snapshotTables(fresh.pool, 'ethereum', tables)];
      const differing = differingTables(kept, reference);
      for (const name of differing)
        expect({ table: name, rows: normaliseFloats(kept[name]!) }).toEqual({ table: name, rows: normaliseFloats(reference[name]!) });
      expect(differing).toEqual([]);
    } finally {
      await fresh.stop();
      await dropDatabase(freshUrl);
    }
    await ti.stop();
    ti = undefined;
    await devnet.stop();
    devnet = undefined;

    // npm run devnet -- reset: the kept chain goes (its indexed data too: tools/devnet/reset-data.int-spec.ts).
    resetDevnet(stateDir);
    expect(existsSync(join(stateDir, LIVE_DIR))).toBe(false);
  });
});
