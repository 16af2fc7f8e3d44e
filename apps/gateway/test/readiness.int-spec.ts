import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import { READY_CACHE_MS } from '../src/health/health.controller';
import { GatewayHarness } from './harness';

jest.setTimeout(60_000);

/**
 * Public readiness says, per indexed network, when its data is ahead of the chain its node serves
 * (issue 17): the indexer marks index_cursors.ahead_of_chain from the moment it finds the chain
 * below its data until the rollback commits; the gateway's /health/ready reads it with its Postgres check.
 */
describe('GET /health/ready: data ahead of the chain, per network', () => {
  let nats: PrivateNatsServer;
  let gw: GatewayHarness;

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_ready_ahead'), redisUrl: INFRA.redis, natsUrl: nats.url },
    });
  });

  afterAll(async () => {
    await gw?.close();
    await nats?.dispose();
  });

  const ready = async (): Promise<{
    status: number;
    body: { status: string; checks: Record<string, string>; dataOnChain: Record<string, string> };
  }> => {
    const res = await gw.request('/health/ready');
    return {
      status: res.status,
      body: (await res.json()) as { status: string; checks: Record<string, string>; dataOnChain: Record<string, string> },
    };
  };
  const nextWindow = (): Promise<void> => new Promise((r) => setTimeout(r, READY_CACHE_MS + 50));

  it('lists each indexed network as up, and down while its data is ahead of the chain', async () => {
    expect((await ready()).body.dataOnChain).toEqual({});

    await gw.pool.query(
      `INSERT INTO index_cursors (network, block_number, block_hash) VALUES ('ethereum', 746, '0x${'aa'.repeat(32)}'), ('base', 120, '0x${'bb'.repeat(32)}')`,
    );
    await nextWindow();
    expect(await ready()).toEqual({
      status: 200,
      body: expect.objectContaining({ status: 'ok', dataOnChain: { base: 'up', ethereum: 'up' } }),
    });

    // The indexer found ethereum's chain below its data (a reloaded node): until the rollback commits.
    await gw.pool.query(`UPDATE index_cursors SET ahead_of_chain = true WHERE network = 'ethereum'`);
    await nextWindow();
    const ahead = await ready();
    // Informational, like the services: the gateway itself and the other networks still serve.
    expect(ahead).toEqual({
      status: 200,
      body: expect.objectContaining({
        status: 'ok',
        checks: { nats: 'up', postgres: 'up', redis: 'up' },
        dataOnChain: { base: 'up', ethereum: 'down' },
      }),
    });

    // The rollback's cursor rewind clears it.
    await gw.pool.query(`UPDATE index_cursors SET ahead_of_chain = false WHERE network = 'ethereum'`);
    await nextWindow();
    expect((await ready()).body.dataOnChain).toEqual({ base: 'up', ethereum: 'up' });
  });
});
