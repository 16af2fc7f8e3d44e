import { randomBytes } from 'node:crypto';
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import type { Network } from '@tokensvc/domain';
import { IndexedHead, PoolStateChanged } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, INFRA, testDevnet } from '@tokensvc/testing';
import { ChainReader, JsonRpcClient } from '@tokensvc/chain';
import { RecordingDerivation } from '../testing/recording-derivation';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';
import { ChainEventPublisher } from './chain-event-publisher';
import { publishPending } from './publish-pending';
import { PublishLoop } from './publish-loop';

jest.setTimeout(120_000);

interface Stored {
  subject: string;
  msgId: string;
  json: unknown;
}

/**
 * Publishing to JetStream after each committed batch, on a stream of this test's own (unique
 * name and subject prefix on the shared NATS): every pool's latest state and the finalised block
 * arrive with message ids, and a re-send after a "crash between commit and publish" is dropped.
 */
describe('chain events on JetStream', () => {
  const { rpcUrls, manifestPath } = testDevnet();
  const rpcUrl = rpcUrls.ethereum!;
  const suffix = randomBytes(4).toString('hex');
  const stream = `INGEST_PUB_${suffix}`;
  const prefix = `ingestpub${suffix}`;
  const dbUrl = createTestDatabaseUrl('ingest_publish');
  const publisher = new ChainEventPublisher({ natsUrl: INFRA.nats, stream, subjectPrefix: prefix });
  let loop: PublishLoop;
  let ti: TestIndexer;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let head: number;

  const readStream = async (): Promise<Stored[]> => {
    const info = await jsm.streams.info(stream);
    const out: Stored[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq });
      out.push({ subject: m.subject, msgId: m.header.get('Nats-Msg-Id'), json: m.json() });
    }
    return out;
  };

  beforeAll(async () => {
    await migrate(dbUrl);
    await publisher.connect();
    nc = await connect({ servers: INFRA.nats });
    jsm = await nc.jetstreamManager();
    head = await new ChainReader(new JsonRpcClient(rpcUrl)).blockNumber();
    let kick: (n: Network) => void = () => undefined;
    ti = startTestIndexer({
      network: 'ethereum',
      rpcUrl,
      databaseUrl: dbUrl,
      manifestPath,
      derive: new RecordingDerivation(),
      onCommitted: (n) => kick(n),
    });
    loop = new PublishLoop(ti.pool, publisher, { log: () => undefined, warn: (m) => ti.lines.push(m), error: (m) => ti.lines.push(m) });
    kick = (n) => loop.kick(n);
    await ti.waitForCursor(head);
    await ti.indexer.stop();
    loop.kick('ethereum');
    await loop.idle();
  });

  afterAll(async () => {
    await loop?.close();
    await ti?.stop();
    await publisher.close();
    await jsm?.streams.delete(stream).catch(() => undefined);
    await nc?.drain();
    await dropDatabase(dbUrl);
  });

  it('publishes every pool with its committed state and message id <network>:<pool>:<block>:<log>', async () => {
    const messages = await readStream();
    const pools = (
      await ti.pool.query(
        `SELECT address, reserve0, reserve1, sqrt_price_x96, liquidity, tick, block_number, log_index FROM pools WHERE network = 'ethereum'`,
      )
    ).rows as Array<Record<string, string | number | null>>;
    const latest = new Map<string, PoolStateChanged>();
    for (const m of messages.filter((x) => x.subject === `${prefix}.ethereum.pool-state.v1`)) {
      const msg = PoolStateChanged.fromJSON(m.json);
      expect(m.msgId).toBe(`ethereum:${msg.pool}:${msg.blockNumber}:${msg.logIndex}`);
      latest.set(msg.pool, msg);
    }
    expect(pools.length).toBeGreaterThan(10);
    for (const p of pools) {
      expect(latest.get(p['address'] as string)).toMatchObject({
        reserve0: p['reserve0'],
        reserve1: p['reserve1'],
        sqrtPriceX96: p['sqrt_price_x96'] ?? '',
        liquidity: p['liquidity'] ?? '',
        tick: p['tick'] ?? 0,
        blockNumber: String(p['block_number']),
        logIndex: p['log_index'],
        restored: false,
      });
    }
  });

  it('publishes the finalised block (head minus the finality depth)', async () => {
    const finals = (await readStream())
      .filter((m) => m.subject === `${prefix}.ethereum.block-finalized.v1`)
      .map((m) => m.json as { blockNumber: string });
    expect(finals.length).toBeGreaterThan(0);
    // The indexed head, not the head read before the run: the shared devnet may mine a block in between.
    const [cursor] = (await ti.pool.query(`SELECT block_number::text FROM index_cursors WHERE network = 'ethereum'`)).rows as Array<{
      block_number: string;
    }>;
    expect(Number(cursor!.block_number)).toBeGreaterThanOrEqual(head);
    expect(Number(finals.at(-1)!.blockNumber)).toBe(Number(cursor!.block_number) - 64);
  });

  it('closes each run with the indexed head: the cursor block and its hash on the chain, after the pool states', async () => {
    const messages = await readStream();
    const heads = messages.filter((m) => m.subject === `${prefix}.ethereum.indexed-head.v1`);
    expect(heads.length).toBeGreaterThan(0);
    const last = IndexedHead.fromJSON(heads.at(-1)!.json);
    const [cursor] = (
      await ti.pool.query(`SELECT block_number::text, block_hash, reorg_epoch FROM index_cursors WHERE network = 'ethereum'`)
    ).rows as Array<{ block_number: string; block_hash: string; reorg_epoch: number }>;
    expect(last).toEqual({
      network: 'ethereum',
      blockNumber: cursor!.block_number,
      blockHash: cursor!.block_hash,
      reorgEpoch: cursor!.reorg_epoch,
    });
    const block = await new JsonRpcClient(rpcUrl).call<{ hash: string }>('eth_getBlockByNumber', [
      `0x${Number(cursor!.block_number).toString(16)}`,
      false,
    ]);
    expect(last.blockHash).toBe(block.hash);
    expect(heads.at(-1)!.msgId).toBe(`ethereum:head:${cursor!.block_number}:${cursor!.block_hash}:r${cursor!.reorg_epoch}`);
    // every pool state comes before the head that closes its run
    const lastPool = messages.map((m) => m.subject).lastIndexOf(`${prefix}.ethereum.pool-state.v1`);
    expect(messages.indexOf(heads.at(-1)!)).toBeGreaterThan(lastPool);
  });

  it('re-publishes after a crash between commit and publish, and JetStream drops the duplicates', async () => {
    const before = await jsm.streams.info(stream);
    // As if the process died after committing but before publishing anything.
    await ti.pool.query(`UPDATE index_cursors SET published_seq = 0, published_finalized = 0 WHERE network = 'ethereum'`);
    const again = await publishPending(ti.pool, publisher, 'ethereum');
    expect(again.pools).toBeGreaterThan(10);
    expect(again.finalized).toBe(true);
    const after = await jsm.streams.info(stream);
    expect(after.state.messages).toBe(before.state.messages);
    expect(after.state.last_seq).toBe(before.state.last_seq);
  });
});
