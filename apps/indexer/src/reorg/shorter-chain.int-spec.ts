import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommonConfig } from '@tokensvc/config';
import { TEST_ACCOUNTS, type DevnetManifest } from '@tokensvc/devnet';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, testDevnet } from '@tokensvc/testing';
import { Deriver } from '../derive';
import { METRICS } from '../metrics';
import { send, txs } from '../testing/activity';
import { DERIVED_TABLES, differingTables, normaliseFloats, RAW_TABLES, snapshotTables } from '../testing/db-snapshot';
import { startPrivateAnvil, type PrivateAnvil } from '../testing/private-anvil';
import { startTestIndexer, type TestIndexer, type TestIndexerOptions } from '../testing/run-indexer';

jest.setTimeout(300_000);

/**
 * A node that comes back with a chain below the indexer's cursor (a devnet reloaded from its saved
 * state, a resynced node, a failover onto a node that lost blocks): the indexed blocks above the
 * node's head are gone, while the block at the head is still the one indexed, so no hash differs
 * at the head. Within seconds and without any new block, the tables must equal a fresh index of
 * the reverted chain; a node that is merely behind while another URL has the cursor's block must
 * not cause a rollback.
 */
describe('a chain that comes back below the cursor (private anvil)', () => {
  const { manifestPath } = testDevnet();
  const net = (JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest).networks.find((n) => n.network === 'ethereum')!;
  const token = (symbol: string): string => net.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase();
  const v2 = net.platforms.find((p) => p.slug === 'uniswap-v2')!;
  const router = (v2.addresses['router'] as string).toLowerCase();
  const factory = (v2.addresses['factory'] as string).toLowerCase();
  const vault = net.platforms
    .find((p) => p.family === 'erc4626')!
    .vaults.find((v) => v.assetSymbol === 'USDC')!
    .address.toLowerCase();
  const [alice, bob] = TEST_ACCOUNTS.map((a) => a.address.toLowerCase());
  const FINALITY = 4;
  const dbUrl = createTestDatabaseUrl('ingest_shorter');
  const deriver = (rpcUrl: string): Deriver => new Deriver({ networks: [{ network: 'ethereum', rpcUrl }] } as unknown as CommonConfig);
  let anvil: PrivateAnvil;
  let ti: TestIndexer | undefined;
  let round = 0;
  /** whether the indexer reported itself not ready when it logged the chain below its data */
  let readyWhenFound: boolean[] = [];

  const start = (o: Partial<TestIndexerOptions> = {}): TestIndexer => {
    const lines: unknown[] = [];
    const holder: { started?: TestIndexer } = {};
    const push = (m: unknown): void => {
      lines.push(m);
      if (typeof m === 'object' && m !== null && (m as { msg?: string }).msg === 'chain below the indexed data; rolling back now')
        readyWhenFound.push(holder.started?.indexer.ready ?? true);
    };
    const logger = { log: push, warn: push, error: push };
    const started = startTestIndexer({
      network: 'ethereum',
      rpcUrl: anvil.rpcUrl,
      databaseUrl: dbUrl,
      manifestPath,
      derive: deriver(anvil.rpcUrl),
      finalityDepth: FINALITY,
      logger,
      ...o,
    });
    holder.started = started;
    return { ...started, lines };
  };

  const activity = async (): Promise<void> => {
    round++;
    await send(anvil.client, txs.transfer(alice!, token('USDC'), bob!, 1_000_000n * BigInt(round)));
    await send(anvil.client, txs.swapV2(alice!, router, 500_000_000n + BigInt(round), [token('USDC'), token('WETH')]));
    await send(anvil.client, txs.vaultDeposit(alice!, vault, 2_000_000n * BigInt(round)));
  };

  const nodeTip = async (): Promise<{ number: number; hash: string }> => {
    const tip = await anvil.client.call<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
    return { number: parseInt(tip.number, 16), hash: tip.hash };
  };

  const storedCursor = async (indexer: TestIndexer): Promise<{ number: number; hash: string } | undefined> => {
    const [c] = (await indexer.pool.query(`SELECT block_number, block_hash FROM index_cursors WHERE network = 'ethereum'`)).rows as Array<{
      block_number: string;
      block_hash: string;
    }>;
    return c && { number: Number(c.block_number), hash: c.block_hash };
  };

  /** until the indexed tip is the node's tip (same number and hash); returns the time it took */
  const waitForTip = async (indexer: TestIndexer, timeoutMs = 120_000): Promise<number> => {
    const t0 = Date.now();
    for (;;) {
      const [tip, cursor] = [await nodeTip(), await storedCursor(indexer)];
      if (cursor && cursor.number === tip.number && cursor.hash === tip.hash) return Date.now() - t0;
      if (Date.now() - t0 > timeoutMs)
        throw new Error(`indexer not at the tip ${tip.number}: ${JSON.stringify(cursor)}; ${JSON.stringify(indexer.lines.slice(-3))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const expectEqualToFreshIndex = async (repaired: TestIndexer): Promise<void> => {
    const freshUrl = createTestDatabaseUrl('ingest_shorter_fresh');
    await migrate(freshUrl);
    const fresh = startTestIndexer({
      network: 'ethereum',
      rpcUrl: anvil.rpcUrl,
      databaseUrl: freshUrl,
      manifestPath,
      derive: deriver(anvil.rpcUrl),
      finalityDepth: FINALITY,
    });
    try {
      await waitForTip(fresh);
      const tables = { ...RAW_TABLES, ...DERIVED_TABLES };
      const [mine, reference] = [
        await snapshotTables(repaired.pool, 'ethereum', tables),
        await snapshotTables(fresh.pool, 'ethereum', tables),
      ];
      const differing = differingTables(mine, reference);
      for (const name of differing)
        expect({ table: name, rows: normaliseFloats(mine[name]!) }).toEqual({ table: name, rows: normaliseFloats(reference[name]!) });
      expect(differing).toEqual([]);
      // No stored block is above the node's head.
      const above = (
        await repaired.pool.query(`SELECT count(*)::int AS n FROM blocks WHERE network = 'ethereum' AND number > $1`, [
          (await nodeTip()).number,
        ])
      ).rows[0] as { n: number };
      expect(above.n).toBe(0);
    } finally {
      await fresh.stop();
      await dropDatabase(freshUrl);
    }
  };

  const aheadGauge = async (): Promise<number | undefined> =>
    (await METRICS.aheadOfChain.get()).values.find((v) => v.labels['network'] === 'ethereum')?.value;

  beforeAll(async () => {
    anvil = await startPrivateAnvil({
      network: 'ethereum',
      port: await freePort(),
      stateFile: join(dirname(manifestPath), 'ethereum.state.json'),
    });
    await migrate(dbUrl);
    for (const [t, spender] of [
      [token('USDC'), router],
      [token('USDC'), vault],
    ] as const)
      await send(anvil.client, txs.approve(alice!, t, spender));
  });

  afterEach(async () => {
    await ti?.stop();
    ti = undefined;
  });

  afterAll(async () => {
    await anvil?.stop();
    await dropDatabase(dbUrl);
  });

  it('rolls back within seconds, with no new block, when the node reverts to an earlier snapshot', async () => {
    ti = start();
    await waitForTip(ti);
    const snapshot = await anvil.client.call<string>('evm_snapshot');
    await activity();
    // A new pair, its LP token and a swap in it: rows that must disappear, not only change.
    await send(anvil.client, txs.createPair(alice!, factory, token('LINK'), token('UNI')));
    await activity();
    await waitForTip(ti);
    const before = (await storedCursor(ti))!;
    readyWhenFound = [];

    expect(await anvil.client.call<boolean>('evm_revert', [snapshot])).toBe(true);
    const head = await nodeTip();
    expect(head.number).toBe(before.number - 7);
    const tookMs = await waitForTip(ti, 5_000);
    expect((await nodeTip()).number).toBe(head.number); // no block was mined meanwhile
    process.stdout.write(`indexer back on the reverted chain in ${tookMs} ms (${before.number} -> ${head.number})\n`);

    expect(readyWhenFound).toEqual([false]);
    expect(ti.indexer.ready).toBe(true);
    expect(await aheadGauge()).toBe(0);
    expect(ti.lines).toContainEqual(expect.objectContaining({ ancestor: head.number, depth: 7 }));
    await expectEqualToFreshIndex(ti);
  });

  it('rolls back at start when the chain was reloaded below the cursor while the indexer was stopped', async () => {
    ti = start();
    await waitForTip(ti);
    const snapshot = await anvil.client.call<string>('evm_snapshot');
    await activity();
    await activity();
    await waitForTip(ti);
    await ti.stop();
    ti = undefined;
    expect(await anvil.client.call<boolean>('evm_revert', [snapshot])).toBe(true);
    const head = await nodeTip();

    ti = start();
    const tookMs = await waitForTip(ti, 5_000);
    expect((await nodeTip()).number).toBe(head.number);
    process.stdout.write(`indexer restarted onto the reloaded chain, repaired in ${tookMs} ms\n`);
    await expectEqualToFreshIndex(ti);
  });

  it('does not roll back while another RPC URL still has the cursor block (the main node is only behind)', async () => {
    const lagging = await laggingProxy(anvil.rpcUrl);
    try {
      ti = start({ rpcUrl: lagging.url, fallbackRpcUrls: ['http://127.0.0.1:1', anvil.rpcUrl] });
      await waitForTip(ti);
      const before = (await storedCursor(ti))!;
      lagging.lagAt = before.number - 3;
      // Several polls with the main node behind the cursor.
      const deadline = Date.now() + 1_500;
      while (Date.now() < deadline) {
        expect(await storedCursor(ti)).toEqual(before);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(ti.lines).toContainEqual(
        expect.objectContaining({ msg: 'RPC node behind the cursor; another URL has the cursor block, waiting', fallback: anvil.rpcUrl }),
      );
      expect(ti.lines.filter((l) => typeof l === 'object' && l !== null && 'depth' in l)).toEqual([]);
      expect(ti.indexer.dataAheadOfChainNow).toBe(false);
      // The main node catches up: indexing goes on from the same cursor.
      lagging.lagAt = undefined;
      await activity();
      await waitForTip(ti);
      expect(ti.lines.filter((l) => typeof l === 'object' && l !== null && 'depth' in l)).toEqual([]);
    } finally {
      await ti?.stop();
      ti = undefined;
      await lagging.close();
    }
  });
});

/**
 * A JSON-RPC proxy whose node looks behind while `lagAt` is set: `latest` is block `lagAt`, later
 * blocks do not exist and eth_blockNumber says `lagAt`.
 */
async function laggingProxy(target: string): Promise<{ url: string; lagAt: number | undefined; close(): Promise<void> }> {
  const state: { lagAt: number | undefined } = { lagAt: undefined };
  type Req = { id: number; method: string; params?: unknown[] };
  const answer = async (r: Req): Promise<unknown> => {
    const lag = state.lagAt;
    if (lag !== undefined && r.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: r.id, result: `0x${lag.toString(16)}` };
    if (lag !== undefined && r.method === 'eth_getBlockByNumber') {
      const tag = r.params?.[0] as string;
      if (tag === 'latest') r = { ...r, params: [`0x${lag.toString(16)}`, ...(r.params ?? []).slice(1)] };
      else if (tag.startsWith('0x') && parseInt(tag, 16) > lag) return { jsonrpc: '2.0', id: r.id, result: null };
    }
    const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(r) });
    return res.json();
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as Req | Req[];
      void (Array.isArray(body) ? Promise.all(body.map(answer)) : answer(body)).then(
        (out) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(out));
        },
        () => {
          res.writeHead(502);
          res.end();
        },
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}
