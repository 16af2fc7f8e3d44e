import { ChainReader, JsonRpcClient, loadManifestNetworks, loadPlatformRegistry, type PlatformDefinition } from '@tokensvc/chain';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, INFRA, testDevnet } from '@tokensvc/testing';
import { Client } from 'pg';
import { spawnIndexer } from '../testing/indexer-process';
import { blockAtTime, preflightScopes, ScopeError, type ScopeToCheck } from './preflight';

jest.setTimeout(90_000);

/** What the indexer refuses at start, before it writes anything (issue 18: bad input). */
describe('indexer scope preflight', () => {
  const { rpcUrls, manifestPath } = testDevnet();
  const ethereum = rpcUrls.ethereum!;
  const base = rpcUrls.base!;
  const platforms = loadPlatformRegistry(manifestPath, ['ethereum']).filter((p) => p.network === 'ethereum');
  const tokens = loadManifestNetworks(manifestPath).get('ethereum')!.tokens;
  const scope = (over: Partial<ScopeToCheck> = {}): ScopeToCheck => ({
    network: 'ethereum',
    rpcUrls: [ethereum],
    listedTokens: tokens,
    platforms,
    ...over,
  });
  const problems = async (s: ScopeToCheck): Promise<string[]> => {
    try {
      await preflightScopes([s]);
    } catch (e) {
      if (e instanceof ScopeError) return [...e.problems];
      throw e;
    }
    return [];
  };

  it('accepts the devnet scope as configured, and keeps an explicit start block', async () => {
    expect(platforms.some((p) => p.family === 'uniswap-v3')).toBe(true);
    const [checked] = await preflightScopes([scope({ startBlock: 3 })]);
    expect(checked).toEqual({ network: 'ethereum', startBlock: 3 });
  });

  it('refuses an RPC URL of another chain, naming the variable to fix', async () => {
    const found = await problems(scope({ rpcUrls: [ethereum, base] }));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/serves chain id 8453, not 1 .*fix RPC_URL_ETHEREUM/);
  });

  it('refuses a start block after the head', async () => {
    const head = await new ChainReader(new JsonRpcClient(ethereum)).blockNumber();
    const found = await problems(scope({ startBlock: head + 1_000 }));
    expect(found).toEqual([
      expect.stringMatching(new RegExp(`start block ${head + 1_000} is after the chain's head \\(${head}\\); set START_BLOCK_ETHEREUM`)),
    ]);
  });

  it('refuses a registry entry with no code on chain, naming the platform, role and address', async () => {
    const ghost = '0x00000000000000000000000000000000000dead1';
    const v2 = platforms.find((p) => p.family === 'uniswap-v2')!;
    const broken: PlatformDefinition = { ...v2, slug: 'ghost-swap', addresses: { ...v2.addresses, factory: ghost } };
    const found = await problems(scope({ platforms: [...platforms, broken] }));
    expect(found).toEqual([expect.stringContaining(`ghost-swap factory ${ghost} has no code`)]);
    const missingToken = await problems(scope({ listedTokens: [...tokens, ghost] }));
    expect(missingToken).toEqual([expect.stringContaining(`listed token ${ghost} has no code`)]);
  });

  it('refuses a scope with nothing to index', async () => {
    const found = await problems(scope({ listedTokens: [], platforms: loadPlatformRegistry(undefined, ['ethereum']) }));
    expect(found).toEqual([expect.stringMatching(/no tokens and no protocol contracts.*REGISTRY=shipped/)]);
  });

  it('turns "the last N days" into the first block at or after that time', async () => {
    const reader = new ChainReader(new JsonRpcClient(ethereum));
    const head = await reader.latestHeader();
    const since = head.timestamp - 10 * 86_400;
    const block = await blockAtTime(new JsonRpcClient(ethereum), head.number, since);
    const [at, before] = await reader.headers([block, Math.max(0, block - 1)]);
    expect(at!.timestamp).toBeGreaterThanOrEqual(since);
    if (block > 0) expect(before!.timestamp).toBeLessThan(since);
  });

  it('the indexer process stops with the message and writes nothing', async () => {
    const dbUrl = createTestDatabaseUrl('preflight');
    await migrate(dbUrl);
    try {
      // ethereum's variable pointing at base's node
      const p = spawnIndexer({
        DATABASE_URL: dbUrl,
        NATS_URL: INFRA.nats,
        NETWORKS: 'ethereum',
        RPC_URL_ETHEREUM: base,
        DEVNET_MANIFEST: manifestPath,
        HEALTH_PORT: '0',
        LOG_LEVEL: 'warn',
      });
      expect(await p.exited).toBe(1);
      expect(p.lines.join('\n')).toMatch(
        /nothing was written.*\\n- ethereum: the RPC URL http:\/\/127\.0\.0\.1:\d+ serves chain id 8453, not 1/,
      );
      const db = new Client({ connectionString: dbUrl });
      await db.connect();
      try {
        for (const table of ['networks', 'platforms', 'index_cursors', 'indexer_leases', 'tokens', 'blocks']) {
          expect({ table, rows: Number((await db.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n) }).toEqual({ table, rows: 0 });
        }
      } finally {
        await db.end();
      }
    } finally {
      await dropDatabase(dbUrl);
    }
  });
});
