/**
 * Ready means ready (issue 20 item 4): under steady load through the gateway (estimates and
 * orders, GET), a second and a third quote replica are started and the first is stopped with
 * SIGTERM, as a rollout does. A new replica joins the queue group only once its graphs are loaded
 * (before, every scale-up answered 503 "still loading"), and the stopped one leaves the group and
 * answers what it took before it exits: no client sees a non-2xx.
 */
import { JsonRpcClient } from '@tokensvc/chain';
import { manifestToken } from '@tokensvc/devnet';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { ReplicaPlatform, createTestDatabaseUrl, readinessSeen, startLoad, testDevnet, type Replica } from '@tokensvc/testing';
import { TestPoolEvents } from '../testing/pool-events';
import { seedReadModels } from '../testing/read-models';

// Generous: on a loaded 2-core machine seeding the read models alone can take a minute.
jest.setTimeout(240_000);

describe('quote rollout under load: scale up twice, stop the first replica', () => {
  let platform: ReplicaPlatform;
  let first: Replica;

  beforeAll(async () => {
    // The shared test devnet: nothing here writes to the chain.
    const t0 = Date.now();
    const devnet = testDevnet();
    platform = new ReplicaPlatform('quote_rollout', devnet);
    await platform.init({
      // generous: the point is availability, and a loaded 2-core machine answers an estimate in seconds
      natsRequestTimeoutMs: 20_000,
      // the read models as the indexer would write them (V3 ticks aside), and a pool event stream of this test's own
      prepare: async ({ natsUrl, net }) => {
        const databaseUrl = createTestDatabaseUrl('quote_rollout');
        await migrate(databaseUrl);
        // without the V3 tick scan: this test needs answers, not exact V3 amounts, and the scan can take minutes on a busy machine
        await seedReadModels(databaseUrl, new JsonRpcClient(devnet.rpcUrls['ethereum']!), net, { ticks: false });
        const events = await TestPoolEvents.create(natsUrl, 'rollout');
        const cleanup = async (): Promise<void> => {
          await events.dispose();
          await dropDatabase(databaseUrl);
        };
        return { databaseUrl, env: { QUOTE_EVENTS_STREAM: events.stream, QUOTE_EVENTS_PREFIX: events.prefix }, cleanup };
      },
    });
    const prepared = Date.now();
    const gateway = await platform.start('gateway');
    // info lines: its shutdown says it left the queue group
    first = await platform.start('quote', 'quote-1', { LOG_LEVEL: 'info' });
    await Promise.all([platform.ready(gateway), platform.ready(first)]);
    process.stdout.write(
      `rollout: database and bus in ${((prepared - t0) / 1000).toFixed(1)} s, gateway and quote-1 ready in ${((Date.now() - prepared) / 1000).toFixed(1)} s\n`,
    );
  }, 170_000);

  afterAll(async () => {
    await platform?.dispose();
  });

  it('answers every request 2xx while replicas join and one leaves', async () => {
    const usdc = `ethereum:${manifestToken(platform.net, 'USDC').address.toLowerCase()}`;
    const weth = `ethereum:${platform.net.weth.toLowerCase()}`;
    const sender = `0x${'22'.repeat(20)}`;
    const load = startLoad(
      platform.base,
      [
        `/v2/portal/estimate?inputToken=${usdc}&inputAmount=1000000000&outputToken=${weth}`,
        `/v2/portal/estimate?inputToken=${weth}&inputAmount=100000000000000000&outputToken=${usdc}`,
        `/v2/portal?sender=${sender}&inputToken=${usdc}&inputAmount=250000000&outputToken=${weth}&slippageTolerancePercentage=1&validate=false`,
      ],
      4,
      { maxRequests: 4000 },
    );
    const served: Record<string, number> = {};
    // requests that overlapped each phase: sent before its end and not answered before its start
    const phase = async (name: string, ms = 2000): Promise<void> => {
      const answeredBefore = load.live.total;
      await new Promise((r) => setTimeout(r, ms));
      served[name] = load.live.started - answeredBefore;
    };

    await phase('one replica');
    // Scale up: each new replica loads its graphs while the load goes on; it takes no request before.
    const second = await platform.start('quote', 'quote-2');
    const third = await platform.start('quote', 'quote-3');
    // (a process start alone can take a minute on a loaded 2-core machine)
    const [secondSeen] = await Promise.all([
      readinessSeen(`http://127.0.0.1:${second.healthPort}/health/ready`, 120_000),
      platform.ready(third, 120_000),
    ]);
    await phase('three replicas');

    // Scale down: SIGTERM to the first; it leaves the group, answers what it took, and exits 0.
    const t = Date.now();
    first.child.kill('SIGTERM');
    const code = await first.exited;
    const stopMs = Date.now() - t;
    await phase('two replicas');
    const result = await load.stop();

    process.stdout.write(
      `rollout: ${result.total} requests, by status ${JSON.stringify(result.byStatus)}, overlapping each phase ${JSON.stringify(served)}, slowest ${result.maxMs} ms; ` +
        `first replica stopped in ${stopMs} ms (exit ${code}); a new replica's readiness before 200: ${secondSeen.join(' -> ')}\n`,
    );
    expect({ code, failures: result.failures }).toEqual({ code: 0, failures: [] });
    expect(Object.keys(result.byStatus)).toEqual(['200']);
    // the load really ran in each phase
    for (const n of Object.values(served)) expect(n).toBeGreaterThanOrEqual(1);
    expect(result.total).toBe(result.started);
    // a new replica says it is starting (503) until its graphs are loaded and it joined the group;
    // once joined it may still answer 503 serving for a moment, when a dependency check (its RPC's
    // eth_blockNumber, 2 s) is slow on a loaded machine (seen once in a full run), but never ready
    // before it joined and never starting again after
    expect(secondSeen).toContain('503 starting');
    expect(secondSeen.filter((s) => s !== 'not listening' && s !== '503 starting' && s !== '503 serving')).toEqual([]);
    const joined = secondSeen.indexOf('503 serving');
    if (joined >= 0) expect(secondSeen.slice(joined)).not.toContain('503 starting');
    expect(first.lines.join('\n')).toContain('leaving queue group quote');
  });
});
