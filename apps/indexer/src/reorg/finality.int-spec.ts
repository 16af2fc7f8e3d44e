import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommonConfig } from '@tokensvc/config';
import { TEST_ACCOUNTS, type DevnetManifest } from '@tokensvc/devnet';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import {
  createTestDatabaseUrl,
  freePort,
  freePortRange,
  INFRA,
  PrivateNatsServer,
  startApp,
  stopProcess,
  testDevnet,
  waitForHttp,
  type AppProcess,
} from '@tokensvc/testing';
import { Deriver } from '../derive';
import { reorg, send, txs } from '../testing/activity';
import { startPrivateAnvil, type PrivateAnvil } from '../testing/private-anvil';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';

jest.setTimeout(240_000);

/** test code reads arbitrary JSON shapes */
type Json = any;
interface Label {
  number: number;
  hash: string | null;
  final: boolean;
}

/**
 * Issue 23, through the gateway: every data answer is labelled with its block ({number, hash,
 * final}), and `finality=finalized` answers as of the network's finalized block (cursor minus the
 * finality depth), so a reorg shallower than that depth changes the latest answers but not the
 * finalized ones. A private anvil (anvil_reorg), the indexer in-process with a finality depth of
 * 4, token-data and the gateway as processes on a private NATS.
 */
describe('answers labelled with their block; finality=finalized across a reorg (private anvil)', () => {
  const { manifestPath } = testDevnet();
  const net = (JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest).networks.find((n) => n.network === 'ethereum')!;
  const token = (symbol: string): string => net.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase();
  const router = (net.platforms.find((p) => p.slug === 'uniswap-v2')!.addresses['router'] as string).toLowerCase();
  const [alice, bob] = TEST_ACCOUNTS.map((a) => a.address.toLowerCase());
  const USDC = `ethereum:${token('USDC')}`;
  const FINALITY = 4;
  const dbUrl = createTestDatabaseUrl('finality_labels');
  let anvil: PrivateAnvil;
  let ti: TestIndexer;
  let nats: PrivateNatsServer;
  let apps: AppProcess[] = [];
  let base = '';
  let key = '';
  let lp = '';
  const logs: string[] = [];

  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(20_000) });
    return { status: res.status, body: await res.json() };
  };
  const cursor = async (): Promise<{ block: number; hash: string; finalized: number; finalizedHash: string | null }> => {
    const { rows } = await ti.pool.query(
      `SELECT block_number, block_hash, finalized_block, finalized_hash FROM index_cursors WHERE network = 'ethereum'`,
    );
    const r = rows[0] as { block_number: string; block_hash: string; finalized_block: string; finalized_hash: string | null };
    return { block: Number(r.block_number), hash: r.block_hash, finalized: Number(r.finalized_block), finalizedHash: r.finalized_hash };
  };
  const chainHash = async (n: number): Promise<string> =>
    (await anvil.client.call<{ hash: string }>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).hash;
  /** until the indexed tip is the node's tip (number and hash) */
  const waitForTip = async (): Promise<void> => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const tip = await anvil.client.call<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
      const c = await cursor().catch(() => undefined);
      if (c && c.block === parseInt(tip.number, 16) && c.hash === tip.hash) return;
      if (Date.now() > deadline) throw new Error(`indexer not at the tip: ${JSON.stringify(c)}; ${JSON.stringify(ti.lines.slice(-3))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  /** The four data answers, latest or finalized (token-data's reply cache follows the cursor within ~0.5 s: asked until labelled with `expect`). */
  /** Every answer, once all are labelled with `expectBlock` (and `expectHash`, after a reorg at the same height: a reply cached before it is dropped on token-data's next cursor poll). */
  const answers = async (finality: 'latest' | 'finalized', expectBlock: number, expectHash?: string): Promise<Record<string, Json>> => {
    const f = `&finality=${finality}`;
    const paths = {
      tokens: `/v2/tokens?ids=${USDC},${lp}&sortBy=key${f}`,
      account: `/v2/account?owner=${bob}&networks=ethereum${f}`,
      holders: `/v2/tokens/holders?id=${USDC}${f}`,
      history: `/v2/tokens/history?id=${lp}&resolution=15m${f}`,
    };
    const deadline = Date.now() + 20_000;
    for (;;) {
      const out: Record<string, Json> = {};
      for (const [name, path] of Object.entries(paths)) {
        const r = await get(path);
        expect({ path, status: r.status }).toEqual({ path, status: 200 });
        out[name] = r.body;
      }
      const labels: Label[] = [
        ...out['tokens'].tokens.map((t: Json) => t.block),
        ...out['account'].balances.map((b: Json) => b.block),
        out['holders'].block,
        out['history'].block,
      ];
      if (labels.every((l) => l.number === expectBlock && (expectHash === undefined || l.hash === expectHash))) return out;
      if (Date.now() > deadline) throw new Error(`answers not as of block ${expectBlock}: ${JSON.stringify(labels)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const holderOf = (a: Json, who: string): string | undefined => a['holders'].holders.find((h: Json) => h.address === who)?.rawBalance;
  const usdcOf = (a: Json): string | undefined => a['account'].balances.find((b: Json) => b.key === USDC)?.rawBalance;
  const balanceAt = async (who: string, block: number): Promise<string> =>
    BigInt(
      await anvil.client.call<string>('eth_call', [
        { to: token('USDC'), data: `0x70a08231${who.slice(2).padStart(64, '0')}` },
        `0x${block.toString(16)}`,
      ]),
    ).toString();

  beforeAll(async () => {
    const started = Date.now();
    const phase = (name: string): void => void process.stderr.write(`[finality test] ${name} after ${Date.now() - started} ms\n`);
    phase('start');
    anvil = await startPrivateAnvil({
      network: 'ethereum',
      port: await freePort(),
      stateFile: join(dirname(manifestPath), 'ethereum.state.json'),
    });
    phase('anvil up');
    await migrate(dbUrl);
    phase('migrated');
    await send(anvil.client, txs.approve(alice!, token('USDC'), router));
    ti = startTestIndexer({
      network: 'ethereum',
      rpcUrl: anvil.rpcUrl,
      databaseUrl: dbUrl,
      manifestPath,
      derive: new Deriver({ networks: [{ network: 'ethereum', rpcUrl: anvil.rpcUrl }] } as unknown as CommonConfig),
      finalityDepth: FINALITY,
    });
    // token-data and the gateway start while the indexer backfills the devnet's history
    key = (await new ApiKeysRepository(ti.pool).issue({ tier: 'paid', label: 'finality test' })).key;
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    const gatewayPort = await freePort();
    const env = {
      databaseUrl: dbUrl,
      natsUrl: nats.url,
      redisUrl: INFRA.redis,
      rpcUrls: { ethereum: anvil.rpcUrl },
      manifestPath,
      gatewayPort,
      healthPortBase: await freePortRange(5),
      logLevel: 'warn',
    };
    apps = (['token-data', 'gateway'] as const).map((app) => startApp(app, env, (name, line) => logs.push(`[${name}] ${line}`)));
    base = `http://127.0.0.1:${gatewayPort}`;
    await waitForTip();
    phase('indexed to the tip');
    await waitForHttp(`${base}/health`, 90_000);
    phase('gateway up');
    const { rows } = await ti.pool.query(
      `SELECT t.key FROM tokens t JOIN pools p ON p.network = t.network AND p.address = t.pool_address
        WHERE t.network = 'ethereum' AND t.family = 'uniswap-v2' AND $1 IN (p.token0, p.token1) AND $2 IN (p.token0, p.token1)`,
      [token('USDC'), token('WETH')],
    );
    lp = (rows[0] as { key: string }).key;
  });

  afterAll(async () => {
    await Promise.all(apps.map((p) => stopProcess(p)));
    await ti?.stop();
    await anvil?.stop();
    await nats?.dispose();
    await dropDatabase(dbUrl);
  });

  it('labels answers with the cursor or the finalized block; finalized answers survive a reorg shallower than the finality depth, latest ones follow it', async () => {
    // as of block X (the tip now): the latest answers
    const x = await cursor();
    const atX = await answers('latest', x.block);
    expect(atX['holders'].block).toEqual({ number: x.block, hash: x.hash, final: false });
    expect(atX['tokens'].tokens.map((t: Json) => t.block)).toEqual([
      { number: x.block, hash: x.hash, final: false },
      { number: x.block, hash: x.hash, final: false },
    ]);

    // four more blocks (a transfer to bob, a swap, a second transfer, a third): the finalized block is now X
    await send(anvil.client, txs.transfer(alice!, token('USDC'), bob!, 1_000_000n));
    await send(anvil.client, txs.swapV2(alice!, router, 700_000_000n, [token('USDC'), token('WETH')]));
    await send(anvil.client, txs.transfer(alice!, token('USDC'), bob!, 2_000_000n));
    await send(anvil.client, txs.transfer(alice!, token('USDC'), bob!, 3_000_000n));
    await waitForTip();
    const t = await cursor();
    expect(t).toMatchObject({ block: x.block + 4, finalized: x.block, finalizedHash: x.hash });
    const latest = await answers('latest', t.block);
    const finalized = await answers('finalized', x.block);

    // labels: latest = the cursor, not final; finalized = the finalized block, final, with its hash
    const latestLabel = { number: t.block, hash: t.hash, final: false };
    const finalLabel = { number: x.block, hash: await chainHash(x.block), final: true };
    expect([latest['holders'].block, latest['history'].block, ...latest['account'].balances.map((b: Json) => b.block)]).toEqual(
      Array(2 + latest['account'].balances.length).fill(latestLabel),
    );
    expect([finalized['holders'].block, finalized['history'].block, ...finalized['tokens'].tokens.map((k: Json) => k.block)]).toEqual(
      Array(4).fill(finalLabel),
    );
    // history entries: each its candle's last block, final when at or below the finalized block
    for (const e of [...latest['history'].history, ...finalized['history'].history]) {
      expect(e.block.final).toBe(e.block.number <= x.block);
      expect(e.block.hash).toBe(await chainHash(e.block.number));
    }
    expect(finalized['history'].history.every((e: Json) => e.block.number <= x.block)).toBe(true);

    // finalized = as of X: the chain's balances at X (eth_call at that block), what the latest answers said at X
    expect(holderOf(finalized, bob!)).toBe(await balanceAt(bob!, x.block));
    expect(usdcOf(finalized)).toBe(await balanceAt(bob!, x.block));
    expect(finalized['holders'].holders).toEqual(atX['holders'].holders);
    expect(finalized['holders'].totalItems).toBe(atX['holders'].totalItems);
    const state = (a: Json): Json =>
      a['tokens'].tokens.map((k: Json) => ({
        key: k.key,
        price: k.price,
        liquidity: k.liquidity,
        totalSupply: k.totalSupply,
        reserves: k.reserves,
        updatedAt: k.updatedAt,
        volumeUsd1d: k.metrics.volumeUsd1d,
        volumeUsd7d: k.metrics.volumeUsd7d,
      }));
    expect(state(finalized)).toEqual(state(atX));
    // USDC's volume is its swap volume (a basic token): the swap of 700 USDC above X is in the latest answer only
    const usdcVolume = (a: Json): number => Number(a['tokens'].tokens.find((k: Json) => k.key === USDC).metrics.volumeUsd1d);
    expect(usdcVolume(atX)).toBeGreaterThan(0);
    expect(usdcVolume(latest) - usdcVolume(finalized)).toBeCloseTo(700, 2);
    const ohlc = (a: Json): Json =>
      a['history'].history.map((e: Json) => [
        e.time,
        e.openPrice,
        e.highPrice,
        e.lowPrice,
        e.closePrice,
        e.liquidity,
        e.volume1dUsd,
        e.block.number,
      ]);
    expect(ohlc(finalized)).toEqual(ohlc(atX));
    // a finalized page past the end still counts what there is
    const pastHolders = await get(`/v2/tokens/holders?id=${USDC}&limit=100&page=50&finality=finalized`);
    expect(pastHolders.body).toMatchObject({
      totalItems: finalized['holders'].totalItems,
      pageItems: 0,
      more: false,
      holders: [],
      block: finalLabel,
    });
    const pastHistory = await get(`/v2/tokens/history?id=${lp}&resolution=15m&page=50&finality=finalized`);
    expect(pastHistory.body).toMatchObject({ totalItems: finalized['history'].totalItems, pageItems: 0, history: [], block: finalLabel });
    expect(finalized['history'].totalItems).toBeGreaterThan(0);
    // latest = as of the tip: the chain's balance now
    expect(holderOf(latest, bob!)).toBe(await balanceAt(bob!, t.block));
    expect(usdcOf(latest)).toBe(await balanceAt(bob!, t.block));
    expect(holderOf(latest, bob!)).not.toBe(holderOf(finalized, bob!));

    // a reorg of the last 3 blocks (shallower than the finality depth) with other transactions
    await reorg(anvil.client, 3, [
      [txs.transfer(alice!, token('USDC'), bob!, 5_555_555n), 0],
      [txs.swapV2(alice!, router, 123_456_789n, [token('USDC'), token('WETH')]), 1],
    ]);
    await waitForTip();
    const r = await cursor();
    expect(r.block).toBe(t.block);
    expect(r.hash).not.toBe(t.hash);
    expect(r.finalized).toBe(x.block);
    const latestAfter = await answers('latest', r.block, r.hash);
    const finalizedAfter = await answers('finalized', x.block);
    // finalized: the same answers, byte for byte
    expect(finalizedAfter).toEqual(finalized);
    // latest: other balances, the new tip's hash
    expect(latestAfter['holders'].block).toEqual({ number: r.block, hash: r.hash, final: false });
    expect(holderOf(latestAfter, bob!)).toBe(await balanceAt(bob!, r.block));
    expect(holderOf(latestAfter, bob!)).not.toBe(holderOf(latest, bob!));
    expect(usdcOf(latestAfter)).not.toBe(usdcOf(latest));
  });

  it('refuses an unknown finality with a 400 and a message', async () => {
    for (const path of [
      `/v2/tokens?finality=final`,
      `/v2/tokens/holders?id=${USDC}&finality=final`,
      `/v2/account?owner=${bob}&networks=ethereum&finality=final`,
      `/v2/tokens/history?id=${lp}&finality=final`,
    ]) {
      const res = await get(path);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 400, code: 'invalid_parameter' });
      expect(res.body.message).toMatch(/finality.*must be one of latest, finalized/);
    }
  });
});
