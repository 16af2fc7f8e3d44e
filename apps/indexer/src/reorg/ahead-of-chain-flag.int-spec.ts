import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import type { CommonConfig } from '@tokensvc/config';
import { TEST_ACCOUNTS, type DevnetManifest } from '@tokensvc/devnet';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, testDevnet } from '@tokensvc/testing';
import { Deriver } from '../derive';
import { send, txs } from '../testing/activity';
import { startPrivateAnvil, type PrivateAnvil } from '../testing/private-anvil';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';

jest.setTimeout(120_000);

/**
 * index_cursors.ahead_of_chain, which the gateway's public readiness reads (issue 17): set by the
 * indexer as soon as it finds the chain below its data, kept while the rollback is under way, cleared
 * when the rollback commits; a flag left by a stop before the rollback is cleared once the chain
 * is found to have the cursor's block.
 */
describe('the "data ahead of the chain" flag in Postgres (private anvil)', () => {
  const { manifestPath } = testDevnet();
  const net = (JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest).networks.find((n) => n.network === 'ethereum')!;
  const usdc = net.tokens.find((t) => t.symbol === 'USDC')!.address.toLowerCase();
  const [alice, bob] = TEST_ACCOUNTS.map((a) => a.address.toLowerCase());
  const dbUrl = createTestDatabaseUrl('ahead_flag');
  let anvil: PrivateAnvil;
  let ti: TestIndexer | undefined;
  /** another session: holds row locks in the first test, edits the row in the second */
  let locker: Client;

  const start = (): TestIndexer =>
    startTestIndexer({
      network: 'ethereum',
      rpcUrl: anvil.rpcUrl,
      databaseUrl: dbUrl,
      manifestPath,
      derive: new Deriver({ networks: [{ network: 'ethereum', rpcUrl: anvil.rpcUrl }] } as unknown as CommonConfig),
      finalityDepth: 4,
    });
  /** the network's cursor row (none before the indexer's first start) */
  const row = async (indexer: TestIndexer): Promise<{ number: number; hash: string; ahead: boolean }> => {
    const [c] = (await indexer.pool.query(`SELECT block_number, block_hash, ahead_of_chain FROM index_cursors WHERE network = 'ethereum'`))
      .rows as Array<{ block_number: string; block_hash: string; ahead_of_chain: boolean }>;
    return c ? { number: Number(c.block_number), hash: c.block_hash, ahead: c.ahead_of_chain } : { number: -1, hash: '', ahead: false };
  };
  const until = async (what: string, ok: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}; ${JSON.stringify(ti?.lines.slice(-3))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const atTip = async (indexer: TestIndexer): Promise<boolean> => {
    const tip = await anvil.client.call<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
    const c = await row(indexer);
    return c.number === parseInt(tip.number, 16) && c.hash === tip.hash;
  };

  beforeAll(async () => {
    anvil = await startPrivateAnvil({
      network: 'ethereum',
      port: await freePort(),
      stateFile: join(dirname(manifestPath), 'ethereum.state.json'),
    });
    await migrate(dbUrl);
    locker = new Client({ connectionString: dbUrl });
    await locker.connect();
  });

  afterAll(async () => {
    await locker?.end();
    await ti?.stop();
    await anvil?.stop();
    await dropDatabase(dbUrl);
  });

  it('is set from the moment the chain is found below the data until the rollback commits', async () => {
    ti = start();
    await until('indexed to the tip', () => atTip(ti!), 90_000);
    const snapshot = await anvil.client.call<string>('evm_snapshot');
    for (let i = 1; i <= 3; i++) await send(anvil.client, txs.transfer(alice!, usdc, bob!, 1_000_000n * BigInt(i)));
    await until('indexed to the new tip', () => atTip(ti!));
    const before = await row(ti);
    expect(before.ahead).toBe(false);

    // The blocks above the snapshot locked by another session: the rollback (which deletes them)
    // waits, so the time between finding the chain below the data and the rollback's commit is seen.
    await locker.query('BEGIN');
    try {
      await locker.query(`SELECT number FROM blocks WHERE network = 'ethereum' AND number > $1 FOR UPDATE`, [before.number - 3]);
      expect(await anvil.client.call<boolean>('evm_revert', [snapshot])).toBe(true);

      await until('the flag set in Postgres', async () => (await row(ti!)).ahead);
      expect(ti.indexer.dataAheadOfChainNow).toBe(true);
      expect((await row(ti)).number).toBe(before.number); // not rolled back yet
    } finally {
      await locker.query('ROLLBACK');
    }
    await until('rolled back to the reverted tip', () => atTip(ti!));
    expect(await row(ti)).toMatchObject({ number: before.number - 3, ahead: false });
    expect(ti.indexer.dataAheadOfChainNow).toBe(false);
  });

  it('a flag left by a stop before the rollback is cleared once the node has the cursor block', async () => {
    await ti?.stop();
    ti = undefined;
    await locker.query(`UPDATE index_cursors SET ahead_of_chain = true WHERE network = 'ethereum'`);
    ti = start();
    await until('the flag cleared', async () => !(await row(ti!)).ahead);
    expect(ti.indexer.dataAheadOfChainNow).toBe(false);
    expect(ti.lines.filter((l) => typeof l === 'object' && l !== null && 'depth' in l)).toEqual([]);
  });
});
