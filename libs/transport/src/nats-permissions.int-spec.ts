import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Controller, Module } from '@nestjs/common';
import { Ctx, MessagePattern, NatsContext, Payload } from '@nestjs/microservices';
import { natsConnectOptions } from '@tokensvc/config';
import { ErrorCode, ListTokensReply, ListTokensRequest, RPC, StoredOrderReply, type BuildOrderRequest } from '@tokensvc/messages';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { startMicroservice, type MicroserviceHandle } from './microservice';
import { BUS_USERS, natsServerConfig, type BusUser } from './nats-permissions';
import { bodySubjects, bodyViewOf, jsonBody } from './reply-body';
import { handleRpc, handleRpcBody, ServiceError } from './rpc-handler';
import { NatsRpcClient, RpcCallError } from './rpc-client';

jest.setTimeout(60_000);

/**
 * The bus permissions (nats-permissions.ts) on a private nats-server started with the generated
 * config: only the gateway's user gets the paid view or sets the caller of a submission; the other
 * users (or none) are refused by the server; each app's own traffic (request/reply, JetStream)
 * works with its user.
 */
const PASSWORDS = Object.fromEntries(BUS_USERS.map((u) => [u, `pw-${u}-${Math.random().toString(36).slice(2)}`])) as Record<
  BusUser,
  string
>;
let port = 0;
const urlOf = (user?: BusUser): string => (user ? `nats://${user}:${PASSWORDS[user]}@127.0.0.1:${port}` : `nats://127.0.0.1:${port}`);
const common = (user: BusUser) => ({
  natsUrl: urlOf(user),
  databaseUrl: '',
  redisUrl: '',
  logLevel: 'error' as const,
  networks: [],
  devnetManifest: undefined,
  healthPort: 0,
});

/** a stand-in token-data: the view it was asked for, as token-data's controller reads it */
@Controller()
class TokenDataStandIn {
  @MessagePattern(bodySubjects(RPC.listTokens.subject))
  list(@Payload() raw: unknown, @Ctx() ctx: NatsContext): Promise<unknown> {
    const view = bodyViewOf(ctx);
    if (view) return handleRpcBody(RPC.listTokens, raw, () => jsonBody(Buffer.from(JSON.stringify({ view }))));
    return handleRpc(RPC.listTokens, raw, () => ListTokensReply.fromJSON({ totalItems: 7 }));
  }
}

/** a stand-in quote: echoes the caller of a submission; builds answer NOT_FOUND */
@Controller()
class QuoteStandIn {
  @MessagePattern(RPC.submitOrder.subject)
  submit(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.submitOrder, raw, (req) => StoredOrderReply.fromJSON({ relay: { status: `caller=${req.caller}` } }));
  }

  @MessagePattern(RPC.buildOrder.subject)
  build(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.buildOrder, raw, (req: BuildOrderRequest) =>
      Promise.reject(new ServiceError(ErrorCode.ERROR_CODE_NOT_FOUND, `no route for ${req.sender}`)),
    );
  }
}

@Module({ controllers: [TokenDataStandIn] })
class TokenDataModule {}
@Module({ controllers: [QuoteStandIn] })
class QuoteModule {}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function rawConnect(user: BusUser): Promise<NatsConnection> {
  return connect({ ...natsConnectOptions(urlOf(user)), timeout: 2000 });
}

describe('bus permissions (a nats-server with one user per app)', () => {
  let server: ChildProcess;
  let dir: string;
  let tokenData: MicroserviceHandle;
  let quote: MicroserviceHandle;
  const clients: NatsRpcClient[] = [];
  const rpc = async (user: BusUser): Promise<NatsRpcClient> => {
    const c = new NatsRpcClient(urlOf(user), 2000, `perm-spec-${user}`);
    clients.push(c);
    await c.start();
    return c;
  };
  const listReq = ListTokensRequest.fromJSON({ search: 'x' });

  beforeAll(async () => {
    port = await freePort();
    dir = mkdtempSync(join(tmpdir(), 'nats-perm-'));
    writeFileSync(
      join(dir, 'nats.conf'),
      natsServerConfig({ passwords: PASSWORDS, listen: `127.0.0.1:${port}`, storeDir: join(dir, 'js') }),
    );
    server = spawn('nats-server', ['-c', join(dir, 'nats.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const deadline = Date.now() + 10_000;
    for (;;) {
      const nc = await rawConnect('gateway').catch(() => undefined);
      if (nc) {
        await nc.close();
        break;
      }
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`nats-server did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    tokenData = await startMicroservice('token-data', TokenDataModule, common('token-data'), () => ({}));
    quote = await startMicroservice('quote', QuoteModule, common('quote'), () => ({}));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await tokenData?.stop();
    await quote?.stop();
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("gives the gateway's user the paid view and the reply message", async () => {
    const gw = await rpc('gateway');
    const got = await gw.callBody(RPC.listTokens, listReq, 'paid');
    expect('body' in got && Buffer.from(got.body.bytes).toString()).toBe('{"view":"paid"}');
    expect((await gw.call(RPC.listTokens, listReq)).totalItems).toBe(7);
  });

  it.each(['token-data', 'quote', 'indexer', 'status-tracker'] as const)('refuses a paid-view request from the %s user', async (user) => {
    const c = await rpc(user);
    const err = await c.callBody(RPC.listTokens, listReq, 'paid').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcCallError);
    expect((err as RpcCallError).message).toMatch(/permissions violation for publish to "token-data\.tokens\.list\.v1\.view\.paid"/i);
    // nor the plain subject (its reply message carries every field)
    await expect(c.call(RPC.listTokens, listReq)).rejects.toThrow(/permissions violation for publish/i);
  });

  it('refuses a connection without credentials or with a wrong password', async () => {
    await expect(connect({ servers: urlOf(), timeout: 2000 })).rejects.toThrow(/authorization violation/i);
    await expect(connect({ servers: urlOf(), user: 'gateway', pass: 'guess', timeout: 2000 })).rejects.toThrow(/authorization violation/i);
  });

  it('lets only the gateway set the caller of a submission', async () => {
    const submit = { orderId: 'o-1', signature: '0x', caller: 'key:42' };
    expect((await (await rpc('gateway')).call(RPC.submitOrder, submit)).relay?.status).toBe('caller=key:42');
    for (const user of ['token-data', 'status-tracker'] as const) {
      await expect((await rpc(user)).call(RPC.submitOrder, submit)).rejects.toThrow(
        /permissions violation for publish to "quote\.portal\.submit\.v1"/i,
      );
    }
  });

  it("keeps every user out of the others' reply inboxes", async () => {
    const nc = await rawConnect('token-data');
    const errors: string[] = [];
    for (const subject of ['_INBOX.>', '_INBOX.gateway.>']) {
      const sub = nc.subscribe(subject);
      void (async () => {
        try {
          for await (const _ of sub) errors.push('delivered');
        } catch (e) {
          errors.push((e as Error).message);
        }
      })();
    }
    await nc.flush();
    await new Promise((r) => setTimeout(r, 200));
    expect(errors).toEqual([
      expect.stringMatching(/permissions violation for subscription to "_INBOX\.>"/i),
      expect.stringMatching(/permissions violation for subscription to "_INBOX\.gateway\.>"/i),
    ]);
    await nc.close();
  });

  it('carries JetStream traffic: the indexer writes chain events that quote reads, the tracker writes status events that the gateway reads; nobody else writes them', async () => {
    const codec = JSONCodec<{ n: number }>();
    const indexer = await rawConnect('indexer');
    const jsmIndexer = await indexer.jetstreamManager();
    await jsmIndexer.streams.add({ name: 'CHAIN_EVENTS', subjects: ['chain.>'] });
    await indexer.jetstream().publish('chain.ethereum.pool-state.v1', codec.encode({ n: 1 }), { msgID: 'a' });

    const quoteNc = await rawConnect('quote');
    expect((await (await quoteNc.jetstreamManager()).streams.info('CHAIN_EVENTS')).state.last_seq).toBe(1);
    const consumer = await quoteNc.jetstream().consumers.get('CHAIN_EVENTS', { filterSubjects: 'chain.ethereum.>' });
    const msgs = await consumer.fetch({ max_messages: 1, expires: 2000 });
    const got: number[] = [];
    for await (const m of msgs) got.push(codec.decode(m.data).n);
    expect(got).toEqual([1]);
    // quote may read the chain events but not forge them
    await expect(quoteNc.jetstream().publish('chain.ethereum.pool-state.v1', codec.encode({ n: 2 }))).rejects.toThrow(
      /permissions violation/i,
    );

    const tracker = await rawConnect('status-tracker');
    await (await tracker.jetstreamManager()).streams.add({ name: 'CROSS_CHAIN_STATUS', subjects: ['cross-chain-status.>'] });
    await tracker.jetstream().publish('cross-chain-status.v1.o.t', codec.encode({ n: 3 }));
    const gw = await rawConnect('gateway');
    const statusConsumer = await gw.jetstream().consumers.get('CROSS_CHAIN_STATUS', { filterSubjects: 'cross-chain-status.v1.>' });
    const statusMsgs = await statusConsumer.fetch({ max_messages: 1, expires: 2000 });
    const status: number[] = [];
    for await (const m of statusMsgs) status.push(codec.decode(m.data).n);
    expect(status).toEqual([3]);
    await expect(gw.jetstream().publish('cross-chain-status.v1.o.t', codec.encode({ n: 4 }))).rejects.toThrow(/permissions violation/i);
    await Promise.all([indexer, quoteNc, tracker, gw].map((c) => c.close()));
  });
});
