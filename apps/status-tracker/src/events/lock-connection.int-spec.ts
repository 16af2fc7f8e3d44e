import type { BridgeProvider } from '@tokensvc/bridge';
import { JsonRpcClient } from '@tokensvc/chain';
import { dropDatabase, ensureDatabase } from '@tokensvc/persistence';
import { createTestDatabaseUrl, watchPgOverlaps } from '@tokensvc/testing';
import type { CrossChainTracker } from '../tracking/tracker';
import type { BridgeEventStore } from './bridge-event-store';
import { BridgeEventFollowing } from './event-following';
import type { NetworkFollower } from './network-follower';
import type { QuoteMatcher } from './quote-matcher';

/**
 * Every network's follower loop takes its advisory lock on the one lock connection. They start
 * together, so the lock statements were issued while another was still queued on that client:
 * `npm start` printed pg's "Calling client.query() when the client is already executing a query"
 * for the status tracker from there (pg 9 rejects it). They must go one at a time. The followers'
 * chain reads are not part of this (stubbed: each tick is idle).
 */
describe('bridge event following: the lock connection', () => {
  const databaseUrl = createTestDatabaseUrl('tracker_lock_conn');
  beforeAll(() => ensureDatabase(databaseUrl));
  afterAll(() => dropDatabase(databaseUrl));

  it('takes the lock of every network with one statement at a time on its connection', async () => {
    const watch = watchPgOverlaps();
    const rpc = new JsonRpcClient('http://127.0.0.1:9');
    const store = { openOrdersWithEvents: async () => [], prune: async () => undefined } as unknown as BridgeEventStore;
    const following = new BridgeEventFollowing(
      (['ethereum', 'base', 'arbitrum'] as const).map((network) => ({ network, rpc })),
      {} as BridgeProvider,
      {} as QuoteMatcher,
      store,
      {} as CrossChainTracker,
      async () => undefined,
      { databaseUrl, confirmations: 0, startBlocks: 0, followMs: 20, wakeConcurrency: 1 },
    );
    for (const f of following.followers as ReadonlyArray<Pick<NetworkFollower, 'tick' | 'reset'>>) {
      f.tick = async () => 'idle';
      f.reset = () => undefined;
    }
    try {
      following.start();
      const deadline = Date.now() + 10_000;
      while (!(['ethereum', 'base', 'arbitrum'] as const).every((n) => following.leads(n))) {
        if (Date.now() > deadline) throw new Error('the followers did not take their locks');
        await new Promise((r) => setTimeout(r, 20));
      }
      await following.stop();
      expect(watch.overlaps).toEqual([]);
    } finally {
      watch.restore();
      await following.stop();
    }
  });
});
