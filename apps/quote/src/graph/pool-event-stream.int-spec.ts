import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { IndexedHead, PoolStateChanged } from '@tokensvc/messages';
import { INFRA } from '@tokensvc/testing';
import { PoolEventStream } from './pool-event-stream';

jest.setTimeout(60_000);

/**
 * The quote replica's reader of the indexer's pool events, on a stream of this test's own on the
 * shared NATS. The case that once hung: the replica took its database snapshot before the indexer
 * had created the stream (no sequence to start after), so it must read the stream from its first
 * message once it appears.
 */
describe('PoolEventStream', () => {
  const encoder = new TextEncoder();
  let nc: NatsConnection;
  const streams: string[] = [];
  const readers: PoolEventStream[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: INFRA.nats });
  });

  afterAll(async () => {
    for (const r of readers) await r.close();
    const jsm = await nc.jetstreamManager();
    for (const s of streams) await jsm.streams.delete(s).catch(() => undefined);
    await nc.drain();
  });

  const names = (): { stream: string; prefix: string } => {
    const suffix = randomBytes(4).toString('hex');
    streams.push(`QUOTE_POOLS_${suffix}`);
    return { stream: `QUOTE_POOLS_${suffix}`, prefix: `quotepools${suffix}` };
  };

  const pool = (address: string, block: number): PoolStateChanged => ({
    network: 'ethereum',
    pool: address,
    platform: 'uniswap-v2',
    family: 'uniswap-v2',
    token0: '0x01',
    token1: '0x02',
    fee: 3000,
    reserve0: '1000',
    reserve1: '2000',
    sqrtPriceX96: '',
    liquidity: '',
    tick: 0,
    blockNumber: String(block),
    logIndex: 1,
    restored: false,
    tickSpacing: 0,
  });

  async function publish(stream: string, prefix: string, block: number, create: boolean): Promise<void> {
    const jsm = await nc.jetstreamManager();
    if (create) await jsm.streams.add({ name: stream, subjects: [`${prefix}.>`] });
    const js = nc.jetstream();
    await js.publish(
      `${prefix}.ethereum.pool-state.v1`,
      encoder.encode(JSON.stringify(PoolStateChanged.toJSON(pool(`0xpool${block}`, block)))),
    );
    await js.publish(
      `${prefix}.ethereum.indexed-head.v1`,
      encoder.encode(
        JSON.stringify(IndexedHead.toJSON({ network: 'ethereum', blockNumber: String(block), blockHash: `0xhash${block}`, reorgEpoch: 0 })),
      ),
    );
  }

  /** A bounded wait: the bug this file guards against was a promise that never settled. */
  const within = <T>(p: Promise<T>, what: string, ms = 10_000): Promise<T> =>
    Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms).unref())]);

  interface Reader {
    stream: PoolEventStream;
    events: string[];
    start(afterSeq: number | undefined): Promise<void>;
    /** resolves at the next IndexedHead */
    nextHead(): Promise<void>;
  }

  function reader(stream: string, prefix: string): Reader {
    const events: string[] = [];
    let wake: () => void = () => undefined;
    const s = new PoolEventStream({ natsUrl: INFRA.nats, stream, subjectPrefix: prefix, retryMs: 100 }, () => undefined);
    readers.push(s);
    return {
      stream: s,
      events,
      start: (afterSeq) =>
        s.start(['ethereum'], afterSeq, {
          pool: (_n, e) => events.push(`pool ${e.pool}@${e.blockNumber}`),
          head: (_n, h) => {
            events.push(`head ${h.blockNumber}`);
            wake();
          },
        }),
      nextHead: () => new Promise<void>((r) => (wake = r)),
    };
  }

  it('reads from the first event when the stream did not exist at snapshot time (it once hung here for 15 minutes)', async () => {
    const { stream, prefix } = names();
    const r = reader(stream, prefix);
    const afterSeq = await r.stream.lastSequence();
    expect(afterSeq).toBeUndefined();
    const started = r.start(afterSeq);
    const headSeen = r.nextHead();
    await publish(stream, prefix, 5, true);
    await within(started, 'consuming did not start');
    await within(headSeen, 'no IndexedHead delivered');
    expect(r.events).toEqual(['pool 0xpool5@5', 'head 5']);
    expect(r.stream.received).toBe(2);
  });

  it('reads only what follows the snapshot sequence when the stream existed', async () => {
    const { stream, prefix } = names();
    await publish(stream, prefix, 7, true);
    const r = reader(stream, prefix);
    const afterSeq = await r.stream.lastSequence();
    expect(afterSeq).toBe(2);
    const headSeen = r.nextHead();
    await within(r.start(afterSeq), 'consuming did not start');
    await publish(stream, prefix, 8, false);
    await within(headSeen, 'no IndexedHead delivered');
    expect(r.events).toEqual(['pool 0xpool8@8', 'head 8']);
  });
});
