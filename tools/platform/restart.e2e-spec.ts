/**
 * `npm start`, Ctrl-C, `npm start` again (issue 17): tools/platform/start.ts run twice as a
 * process, on its own ports, database, Redis, NATS and devnet folder (DEVNET_STATE_DIR, seeded
 * with the test devnet's saved build, so nothing is rebuilt). The first run moves the chain past
 * the saved build; after the second start the devnet is at the same tip, the indexed data equals
 * the chain without a rollback, and a signed order posted through the gateway is executed.
 * Before the chain was kept (dump on stop, load on start) the second start reloaded the saved
 * build: a chain below the indexed data, and a relayer nonce ahead of the chain.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Interface, JsonRpcProvider, MaxUint256, Wallet } from 'ethers';
import { Pool } from 'pg';
import { MANIFEST_FILE, manifestToken, networkManifest, TEST_ACCOUNTS, type DevnetManifest } from '@tokensvc/devnet';
import { dropDatabase } from '@tokensvc/persistence';
import { createTestDatabaseUrl, eachLine, freePortRange, testDevnet } from '@tokensvc/testing';

jest.setTimeout(170_000);

const REPO_ROOT = join(__dirname, '..', '..');

const ERC20 = new Interface([
  'function transfer(address,uint256) returns (bool)',
  'function approve(address,uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);

interface Started {
  child: ChildProcess;
  exited: Promise<number | null>;
  lines: string[];
}

describe('npm start, stop, npm start: the chain and the data are kept together', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'tokensvc-restart-'));
  const dbUrl = createTestDatabaseUrl('restart_e2e');
  const { manifestPath } = testDevnet();
  const net = networkManifest(JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest, 'ethereum');
  const usdc = manifestToken(net, 'USDC').address.toLowerCase();
  const weth = net.weth.toLowerCase();
  let env: NodeJS.ProcessEnv;
  let base = '';
  let provider: JsonRpcProvider;
  let db: Pool;
  let run: Started | undefined;

  /** start.ts as `npm start` runs it; resolves once it prints "Platform ready". */
  const start = async (): Promise<Started> => {
    // Its own process group: if it hangs, the whole group (apps, anvil, nats, redis) is ended at once.
    const child = spawn(
      process.execPath,
      ['-r', join(REPO_ROOT, 'tools', 'register.js'), join(REPO_ROOT, 'tools', 'platform', 'start.ts')],
      { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    const lines: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start not ready in 90 s:\n${lines.slice(-30).join('\n')}`)), 90_000);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited with ${code}:\n${lines.slice(-30).join('\n')}`));
      });
      eachLine(child, (line) => {
        lines.push(line);
        if (line.startsWith('Platform ready in')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    run = { child, exited, lines };
    await ready;
    return run;
  };

  /** Ctrl-C: start.ts stops what it started (the devnet dumps its chain) and exits 0. */
  const stop = async (r: Started): Promise<number | null> => {
    r.child.kill('SIGINT');
    const timer = setTimeout(() => process.kill(-r.child.pid!, 'SIGKILL'), 30_000);
    const code = await r.exited;
    clearTimeout(timer);
    run = undefined;
    return code;
  };

  const tip = async (): Promise<{ number: number; hash: string }> => {
    const b = (await provider.getBlock('latest'))!;
    return { number: b.number, hash: b.hash! };
  };
  const balanceOf = async (token: string, owner: string): Promise<bigint> =>
    BigInt(await provider.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }));

  /** The indexer's cursor is the chain's tip (number and hash). */
  const indexedToTip = async (timeoutMs = 30_000): Promise<{ number: number; hash: string }> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const t = await tip();
      const [c] = (
        await db.query<{ block_number: string; block_hash: string }>(
          `SELECT block_number, block_hash FROM index_cursors WHERE network = 'ethereum'`,
        )
      ).rows;
      if (c && Number(c.block_number) === t.number && c.block_hash === t.hash) return t;
      if (Date.now() > deadline) throw new Error(`indexer not at the tip ${t.number} ${t.hash}: ${JSON.stringify(c)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  beforeAll(async () => {
    // The test devnet's saved build (the same code's deploy and seed) in a folder of this test's own.
    copyFileSync(manifestPath, join(stateDir, MANIFEST_FILE));
    copyFileSync(join(dirname(manifestPath), 'ethereum.state.json'), join(stateDir, 'ethereum.state.json'));
    // Nine free ports in a row: gateway, devnet, Redis, NATS, and the four apps' health ports (base + 1..4).
    const ports = await freePortRange(9);
    const [gatewayPort, devnetPort, redisPort, natsPort, healthBase] = [ports, ports + 1, ports + 2, ports + 3, ports + 4];
    base = `http://127.0.0.1:${gatewayPort}`;
    // Redis and NATS on ports nothing listens on: start.ts starts its own (NATS with one user per
    // app, as `npm start` does on a machine without them), so no other test shares its queues or subjects.
    env = {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      PORT: String(gatewayPort),
      DEVNET_BASE_PORT: String(devnetPort),
      HEALTH_PORT_BASE: String(healthBase),
      DEVNET_STATE_DIR: stateDir,
      NETWORKS: 'ethereum',
      DATABASE_URL: dbUrl,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      LOG_LEVEL: 'info',
    };
    provider = new JsonRpcProvider(`http://127.0.0.1:${devnetPort}`, undefined, {
      staticNetwork: true,
      polling: true,
      pollingInterval: 100,
      cacheTimeout: -1,
    });
    db = new Pool({ connectionString: dbUrl, max: 1 });
  });

  afterAll(async () => {
    if (run) await stop(run);
    provider?.destroy();
    await db?.end();
    await dropDatabase(dbUrl);
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('starts again on the chain it stopped with, the data equals it, and a signed order is executed', async () => {
    const t0 = Date.now();
    const [alice, bob] = TEST_ACCOUNTS.map((a) => new Wallet(a.privateKey, provider));
    const [a, b] = [alice!.address.toLowerCase(), bob!.address.toLowerCase()];

    // First run: the chain moves past the saved build (a transfer, the Router approved, a swap
    // built by the gateway and sent by the wallet), and the indexer follows.
    let r = await start();
    const firstReadyMs = Date.now() - t0;
    const built = await tip();
    const send = async (w: Wallet, tx: { to: string; data: string; value?: string | bigint }): Promise<void> => {
      const receipt = await (await w.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value ?? 0) })).wait(1, 30_000);
      expect(receipt?.status).toBe(1);
    };
    await send(alice!, { to: usdc, data: ERC20.encodeFunctionData('transfer', [b, 1_234_000_000n]) });
    await send(alice!, { to: usdc, data: ERC20.encodeFunctionData('approve', [net.contracts.router, MaxUint256]) });
    // Orders are built from the indexed pools: once the first index reached the chain's tip.
    await indexedToTip(60_000);
    await tradable();
    const swap = await getJson<{ tx: { to: string; data: string; value?: string } }>(
      `/v2/portal?sender=${a}&inputToken=ethereum:${usdc}&inputAmount=500000000&outputToken=ethereum:${weth}&slippageTolerancePercentage=3`,
    );
    await send(alice!, swap.tx);
    await send(bob!, { to: usdc, data: ERC20.encodeFunctionData('transfer', [a, 34_000_000n]) });
    const before = await indexedToTip();
    expect(before.number).toBe(built.number + 4);
    expect(await stop(r)).toBe(0);

    // Second run: the devnet goes on with the kept chain, the data indexed before the stop is its.
    const t1 = Date.now();
    r = await start();
    const secondReadyMs = Date.now() - t1;
    expect(r.lines).toContainEqual(expect.stringContaining('ethereum: chain kept from the last run'));
    expect(await tip()).toEqual(before);
    expect(await indexedToTip()).toEqual(before);
    // Nothing had to be rolled back (start.ts prints the apps' warnings and errors), and the public readiness says the data is the chain's.
    expect(r.lines.filter((l) => /chain below the indexed data|reorg detected|reorg deeper|head refresh failed/.test(l))).toEqual([]);
    expect(await getJson(`/health/ready`)).toMatchObject({ status: 'ok', dataOnChain: { ethereum: 'up' } });

    const account = await getJson<{ balances: Array<{ network: string; address: string; rawBalance: string }> }>(
      `/v2/account?owner=${a}&networks=ethereum`,
      devKey(),
    );
    const erc20 = account.balances.filter((x) => x.address !== '0x0000000000000000000000000000000000000000');
    expect(erc20.map((x) => x.address)).toEqual(expect.arrayContaining([usdc, weth]));
    for (const x of erc20)
      expect({ token: x.address, raw: x.rawBalance }).toEqual({ token: x.address, raw: (await balanceOf(x.address, a)).toString() });

    // A signed order after the second start: built by the gateway, signed, relayed and mined.
    await tradable();
    const order = await getJson<{
      context: { orderId: string; minOutputAmountSignedOrder: string };
      signedOrder: {
        domain: Record<string, unknown>;
        types: Record<string, Array<{ name: string; type: string }>>;
        value: Record<string, unknown>;
      };
    }>(
      `/v2/portal?sender=${a}&inputToken=ethereum:${usdc}&inputAmount=300000000&outputToken=ethereum:${weth}&slippageTolerancePercentage=3`,
    );
    const wethBefore = await balanceOf(weth, a);
    const signature = await alice!.signTypedData(order.signedOrder.domain, order.signedOrder.types, order.signedOrder.value);
    const post = await fetch(`${base}/v2/portal?orderId=${order.context.orderId}&signature=${signature}`, {
      method: 'POST',
      signal: AbortSignal.timeout(15_000),
    });
    if (post.status !== 200) throw new Error(`POST /v2/portal answered ${post.status}: ${await post.text()}`);
    const deadline = Date.now() + 30_000;
    let status: { status: string; txHashes: string[] };
    for (;;) {
      status = await getJson(`/v2/portal/status?orderId=${order.context.orderId}`);
      if (!['quoted', 'pending'].includes(status.status) || Date.now() > deadline) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    expect(status.status).toBe('mined');
    const receipt = await provider.getTransactionReceipt(status.txHashes[status.txHashes.length - 1]!);
    expect(receipt?.status).toBe(1);
    expect((await balanceOf(weth, a)) - wethBefore).toBeGreaterThanOrEqual(BigInt(order.context.minOutputAmountSignedOrder));

    expect(await stop(r)).toBe(0);
    process.stdout.write(
      `npm start ready in ${(firstReadyMs / 1000).toFixed(1)} s, again in ${(secondReadyMs / 1000).toFixed(1)} s (tip ${before.number}); whole run ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
    );
  });

  /**
   * "Platform ready" means every service answers; the quote service learns the pools as the
   * indexer publishes them, so orders are asked for once an estimate answers (as platform.e2e does).
   */
  async function tradable(): Promise<void> {
    const path = `/v2/portal/estimate?inputToken=ethereum:${usdc}&inputAmount=1000000&outputToken=ethereum:${weth}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(15_000) });
      if (res.status === 200) return;
      if (Date.now() > deadline) throw new Error(`estimate still ${res.status}: ${await res.text()}\n${run?.lines.slice(-20).join('\n')}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** The paid development key start.ts issued and keeps in the state folder. */
  function devKey(): string {
    return (JSON.parse(readFileSync(join(stateDir, 'dev-key.json'), 'utf8')) as { key: string }).key;
  }

  async function getJson<T = unknown>(path: string, key?: string): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
      signal: AbortSignal.timeout(15_000),
    });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  }
});
