/**
 * /v2/account for tokens whose history is partial (tokens.history_from_block: indexed from a start
 * block after their creation): their indexed balances are net transfers since that block, so the
 * owner's balance of each is read from the node (balanceOf at the answer's block), whether the
 * index holds a row for it or not; complete tokens keep their indexed balance. Shared devnet
 * (read-only) and a database holding only the rows this test writes.
 */
import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { JsonRpcClient, type ChainProviders } from '@tokensvc/chain';
import { TEST_ACCOUNTS, type DevnetManifest } from '@tokensvc/devnet';
import { createDataSource, dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, testDevnet } from '@tokensvc/testing';
import { AccountUseCase, balanceOfCall } from './account.usecase';

jest.setTimeout(120_000);

describe('account balances of tokens with partial history (Postgres, devnet)', () => {
  const { rpcUrls, manifestPath } = testDevnet();
  const rpcUrl = rpcUrls.ethereum!;
  const net = (JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest).networks.find((n) => n.network === 'ethereum')!;
  const token = (symbol: string): string => net.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase();
  const owner = TEST_ACCOUNTS[0]!.address.toLowerCase();
  const url = createTestDatabaseUrl('token_data_partial');
  const client = new JsonRpcClient(rpcUrl);
  let ds: DataSource;
  const rpc = new Map([['ethereum', new JsonRpcClient(rpcUrl)]]);

  beforeAll(async () => {
    await migrate(url);
    ds = createDataSource({ url, poolSize: 2 });
    await ds.initialize();
    const head = Number(await client.call<string>('eth_blockNumber'));
    await ds.query(`INSERT INTO index_cursors (network, block_number, block_hash) VALUES ('ethereum', $1, '')`, [head]);
    const insert = `INSERT INTO tokens (key, network, address, platform, family, name, symbol, decimals, created_at, created_block, history_from_block, price)
                    VALUES ($1, 'ethereum', $2, 'basic', 'basic', $3, $3, $4, now(), 1, $5, 1)`;
    // USDC indexed from block 100 on (partial), with no indexed balance for the owner; DAI complete, with one
    await ds.query(insert, [`ethereum:${token('USDC')}`, token('USDC'), 'USDC', 6, 100]);
    await ds.query(insert, [`ethereum:${token('DAI')}`, token('DAI'), 'DAI', 18, null]);
    await ds.query(`INSERT INTO balances (network, token, holder, balance, block_number) VALUES ('ethereum', $1, $2, 12345, 1)`, [
      token('DAI'),
      owner,
    ]);
  });

  afterAll(async () => {
    await ds?.destroy();
    await dropDatabase(url);
  });

  it('reads the partial token from the node (held or not in the index) and says it is partial; complete tokens from the index', async () => {
    const onChain = BigInt(await client.call<string>('eth_call', [{ to: token('USDC'), data: balanceOfCall(owner) }, 'latest']));
    expect(onChain).toBeGreaterThan(0n);
    const reply = await new AccountUseCase(ds, { rpc } as unknown as ChainProviders).execute({ owner, networks: ['ethereum'] });
    const usdc = reply.balances.find((b) => b.token?.symbol === 'USDC');
    expect(usdc).toMatchObject({ rawBalance: onChain.toString() });
    expect(usdc!.token!.historyFromBlock).toBe('100');
    const dai = reply.balances.find((b) => b.token?.symbol === 'DAI');
    expect(dai).toMatchObject({ rawBalance: '12345' });
    expect(dai!.token!.historyFromBlock).toBeUndefined();
    // a repeated network is read once: the same balances, not each twice
    const repeated = await new AccountUseCase(ds, { rpc } as unknown as ChainProviders).execute({
      owner,
      networks: ['ethereum', 'ethereum'],
    });
    expect(repeated.balances.map((b) => b.token?.key).sort()).toEqual(reply.balances.map((b) => b.token?.key).sort());
    expect(repeated.totalQueried).toBe(1);
  });
});
