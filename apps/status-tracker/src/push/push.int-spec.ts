/**
 * Push delivery end to end: the status tracker (real Nest wiring as a NATS microservice, following
 * Across on a devnet of this file's own with the devnet's Across relayer) and the gateway (its own process, `main.ts`) on a
 * private nats-server with JetStream. A loopback receiver stands for the client's webhook
 * endpoint (allowed by WEBHOOK_ALLOW_PRIVATE_HOSTS / WEBHOOK_ALLOW_HTTP_HOSTS = 127.0.0.1, the
 * opt-in tests use). Shown: a real order going ONGOING -> SUCCESS delivers its two transitions
 * once each, signed, with the same record GET /v3/portal/status answers; a receiver failing twice
 * gets each event on retry exactly once, in order; private destinations are a 400; the SSE stream
 * sends the current record then every transition and closes at the terminal one; Last-Event-ID
 * resumes without loss or repeat (204 when nothing is left); streams per client are bounded.
 * A webhook belongs to the API key (or anonymous client address) that registered it: another key
 * neither sees, replaces nor deletes it; concurrent registrations never pass WEBHOOK_MAX_PER_ORDER.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, get as httpGet, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { connect } from 'nats';
import { Pool } from 'pg';
import { ApiKeysRepository } from '@tokensvc/persistence';
import type { INestMicroservice } from '@nestjs/common';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import * as testing from '@tokensvc/testing';
import { StatusTrackerModule } from '../wiring/app.module';
import { loadTrackerConfig } from '../config/tracker-config';
import { TRACKER_METRICS } from '../metrics';
import { startTrackerWorld, type TrackerWorld } from '../testing/tracker-world';
import { loadPushConfig } from './push-config';
import { verifySignature } from './webhook-signature';

jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..', '..', '..');
const { appEnv, freePort, INFRA, PrivateNatsServer, stopProcess, waitForHttp } = testing;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** The client's webhook endpoint: `/ok/*` 200, `/flaky/*` 500 twice then 200, `/down/*` 503, `/redirect/*` 302, `/slow/*` never. */
async function startReceiver(): Promise<{ server: Server; url: (path: string) => string; received: Received[] }> {
  const received: Received[] = [];
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      const n = (seen.get(path) ?? 0) + 1;
      seen.set(path, n);
      if (path.startsWith('/slow/')) {
        received.push({ path, headers: req.headers, body, answered: 0 });
        setTimeout(() => res.destroy(), 10_000).unref();
        return;
      }
      const answered =
        path.startsWith('/flaky/') && n <= 2 ? 500 : path.startsWith('/down/') ? 503 : path.startsWith('/redirect/') ? 302 : 200;
      received.push({ path, headers: req.headers, body, answered });
      // A large body on success: the sender never reads it.
      res
        .writeHead(answered, { 'content-type': 'text/plain', ...(answered === 302 ? { location: '/ok/redirected' } : {}) })
        .end('x'.repeat(answered === 200 ? 100_000 : 10));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { server, url: (path) => `http://127.0.0.1:${port}${path}`, received };
}

interface SseMessage {
  id?: number;
  data?: any;
  comment?: string;
}

/** Reads a text/event-stream response as it arrives. */
class SseReader {
  readonly messages: SseMessage[] = [];
  done = false;
  private buf = '';

  constructor(res: Response) {
    void this.pump(res.body!.getReader());
  }

  get events(): SseMessage[] {
    return this.messages.filter((m) => m.data !== undefined);
  }

  private async pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const dec = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.buf += dec.decode(value, { stream: true });
        let i: number;
        while ((i = this.buf.indexOf('\n\n')) >= 0) {
          const block = this.buf.slice(0, i);
          this.buf = this.buf.slice(i + 2);
          const m: SseMessage = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(': ')) m.comment = line.slice(2);
            else if (line.startsWith('id: ')) m.id = Number(line.slice(4));
            else if (line.startsWith('data: ')) m.data = JSON.parse(line.slice(6));
          }
          if (m.comment !== undefined || m.data !== undefined) this.messages.push(m);
        }
      }
    } catch {
      // aborted by the test
    }
    this.done = true;
  }

  async until(what: string, ok: (r: SseReader) => boolean, timeoutMs = 60_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!ok(this)) {
      if (Date.now() > end)
        throw new Error(`SSE: ${what} not seen within ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(0, 800)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('push delivery: webhooks and SSE (tracker + gateway process, devnet Across, relayer)', () => {
  let nats: testing.PrivateNatsServer;
  let tw: TrackerWorld;
  let tracker: INestMicroservice;
  let gateway: { child: ChildProcess; exited: Promise<number | null> };
  const gatewayLog: string[] = [];
  let base: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    tw = await startTrackerWorld(testing, 'status_push');
    receiver = await startReceiver();
    const config = loadTrackerConfig(tw.trackerEnv({ NATS_URL: nats.url }), { across: tw.across });
    const push = loadPushConfig({
      WEBHOOK_ALLOWED_HOSTS: '*',
      WEBHOOK_ALLOW_HTTP_HOSTS: '127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      WEBHOOK_BACKOFF_MS: '200',
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_SWEEP_MS: '1000',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_MAX_PER_ORDER: '10',
      STATUS_RELAY_POLL_MS: '500',
    });
    tracker = await NestFactory.createMicroservice<MicroserviceOptions>(StatusTrackerModule.forRoot(config, push), {
      transport: Transport.NATS,
      options: { servers: [nats.url], queue: 'status-tracker', name: 'status-tracker' },
      logger: ['error'],
    });
    await tracker.listen();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = {
      ...appEnv('gateway', {
        databaseUrl: tw.databaseUrl,
        natsUrl: nats.url,
        redisUrl: INFRA.redis,
        rpcUrls: {},
        gatewayPort: port,
        logLevel: 'warn',
      }),
      SSE_MAX_STREAMS_PER_CLIENT: '3',
      SSE_HEARTBEAT_MS: '300',
    };
    const child = spawn(process.execPath, ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'apps', 'gateway', 'src', 'main.ts')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const s of [child.stdout, child.stderr]) s?.on('data', (c: Buffer) => gatewayLog.push(c.toString()));
    gateway = { child, exited: new Promise((r) => child.once('exit', (code) => r(code))) };
    await waitForHttp(`${base}/health`, 120_000);
    await tw.startRelayer();
  });

  afterAll(async () => {
    if (gateway) await stopProcess(gateway);
    await tracker?.close();
    await new Promise((r) => receiver?.server.close(r));
    await tw?.stop();
    await nats?.dispose();
  });

  const get = async (path: string, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(30_000) });
  const register = async (
    orderId: string,
    txHash: string,
    url: string,
    key?: string,
    extra: Record<string, string> = {},
  ): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${base}/v3/portal/webhooks?${new URLSearchParams({ orderId, txHash, url, ...extra })}`, {
      method: 'POST',
      headers: key ? { authorization: `Bearer ${key}` } : {},
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.json() };
  };
  /** GET or DELETE /v3/portal/webhooks as `key` (anonymous without). */
  const hooksCall = async (
    method: 'GET' | 'DELETE',
    query: Record<string, string>,
    key?: string,
  ): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${base}/v3/portal/webhooks?${new URLSearchParams(query)}`, {
      method,
      headers: key ? { authorization: `Bearer ${key}` } : {},
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.json() };
  };
  const issueKeys = async (n: number): Promise<string[]> => {
    const pool = new Pool({ connectionString: tw.databaseUrl, max: 1 });
    try {
      const repo = new ApiKeysRepository(pool);
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push((await repo.issue({ tier: 'paid', label: `push test ${i}` })).key);
      return out;
    } finally {
      await pool.end();
    }
  };
  const status = async (orderId: string, txHash: string): Promise<any> =>
    (await get(`/v3/portal/status?orderId=${orderId}&txHash=${txHash}`)).json();
  async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await read();
      if (ok(v)) return v;
      if (Date.now() > end) throw new Error(`${what} not reached within ${timeoutMs} ms: ${JSON.stringify(v).slice(0, 400)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** An order whose deposit is mined with the relayer offline (stays ONGOING until the relayer is back, well before its 4-hour fill deadline). */
  async function heldOrder(): Promise<{ orderId: string; txHash: string }> {
    tw.relayer.setMode('offline');
    const call = await tw.depositCall(1_000_000n);
    const orderId = await tw.storeQuote({ call });
    const receipt = await tw.sendDeposit(call);
    return { orderId, txHash: receipt.hash };
  }

  let done: { orderId: string; txHash: string; record: any } | undefined;
  /** a stream opened with node:http (fetch's pool keeps a spare connection that would hold the gateway's close) */
  let held: Awaited<ReturnType<typeof openRaw>> | undefined;
  async function openRaw(path: string): Promise<{ req: ClientRequest; res: IncomingMessage; body: () => Promise<string> }> {
    const req = httpGet(`${base}${path}`, { agent: false });
    const res = await new Promise<IncomingMessage>((resolve, reject) => req.once('response', resolve).once('error', reject));
    res.on('error', () => undefined);
    req.on('error', () => undefined);
    let text = '';
    res.on('data', (c: Buffer) => (text += c.toString()));
    const ended = new Promise<string>((r) => res.once('end', () => r(text)));
    return { req, res, body: () => ended };
  }

  it('delivers ONGOING and SUCCESS of a real order once each, signed, with the record GET /v3/portal/status answers', async () => {
    const { orderId, txHash } = await heldOrder();
    const reg = await register(orderId, txHash, receiver.url('/ok/a'));
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({
      orderId,
      txHash,
      url: receiver.url('/ok/a'),
      id: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(['PENDING', 'ONGOING']).toContain(reg.body.status);
    await until(
      'ONGOING',
      () => status(orderId, txHash),
      (r) => r.status === 'ONGOING',
    );
    const ongoing = await status(orderId, txHash);
    tw.relayer.setMode('normal');
    const final = await until(
      'SUCCESS',
      () => status(orderId, txHash),
      (r) => r.status === 'SUCCESS',
    );
    const mine = (): Received[] => receiver.received.filter((r) => r.path === '/ok/a');
    await until(
      'two deliveries',
      async () => mine().length,
      (n) => n >= 2,
    );
    // Longer than the sweep and the relay poll: nothing is delivered twice.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(mine()).toHaveLength(2);
    const bodies = mine().map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.seq, b.type, b.record.status])).toEqual([
      [1, 'status.ongoing', 'ONGOING'],
      [2, 'status.success', 'SUCCESS'],
    ]);
    expect(bodies[0].record).toEqual(ongoing);
    expect(bodies[1].record).toEqual(final);
    for (const r of mine()) {
      const b = JSON.parse(r.body);
      expect(b).toMatchObject({ id: `${orderId}:${txHash}:${b.seq}`, orderId, txHash });
      expect(r.headers['x-tokensvc-event-id']).toBe(b.id);
      expect(r.headers['x-tokensvc-webhook-id']).toBe(reg.body.id);
      expect(r.headers['content-type']).toBe('application/json');
      expect(
        verifySignature(reg.body.secret, r.headers['x-tokensvc-signature'] as string, r.headers['x-tokensvc-timestamp'] as string, r.body),
      ).toBe(true);
      expect(
        verifySignature('whsec_wrong', r.headers['x-tokensvc-signature'] as string, r.headers['x-tokensvc-timestamp'] as string, r.body),
      ).toBe(false);
    }
    const rows = await tw.db.query<{ seq: number; attempts: number; state: string }>(
      `SELECT d.seq, d.attempts, w.state FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE w.id = $1 ORDER BY d.seq`,
      [reg.body.id],
    );
    expect(rows.rows).toEqual([
      { seq: 1, attempts: 1, state: 'done' },
      { seq: 2, attempts: 1, state: 'done' },
    ]);
    // The outbox: one event per transition, published.
    const events = await tw.db.query<{ seq: number; status: string; published: boolean }>(
      `SELECT seq, status, published_at IS NOT NULL AS published FROM status_events WHERE order_id = $1 ORDER BY seq`,
      [orderId],
    );
    expect(events.rows).toEqual([
      { seq: 1, status: 'ONGOING', published: true },
      { seq: 2, status: 'SUCCESS', published: true },
    ]);
    const lag = await tw.db.query<{ seq: number; ms: number }>(
      `SELECT e.seq, round(extract(epoch FROM d.delivered_at - e.created_at) * 1000)::int AS ms FROM status_events e JOIN webhook_deliveries d ON d.seq = e.seq AND d.webhook_id = $2 WHERE e.order_id = $1 ORDER BY e.seq`,
      [orderId, reg.body.id],
    );
    process.stdout.write(
      `[push] transition committed -> webhook delivery recorded: ${lag.rows.map((r) => `seq ${r.seq} ${r.ms} ms`).join(', ')}\n`,
    );
    done = { orderId, txHash, record: final };
  });

  it('publishes each event once on JetStream, even when the relay publishes it again after a crash', async () => {
    const { orderId, txHash } = done!;
    const subject = `cross-chain-status.v1.${orderId}.${txHash}`;
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await nc.jetstreamManager();
      const count = async (): Promise<number> =>
        (await jsm.streams.info('CROSS_CHAIN_STATUS', { subjects_filter: subject })).state.subjects?.[subject] ?? 0;
      expect(await count()).toBe(2);
      // As if the relay had crashed after publishing, before marking: it publishes them again.
      await tw.db.query(`UPDATE status_events SET published_at = NULL WHERE order_id = $1`, [orderId]);
      await until(
        'published again',
        async () =>
          (await tw.db.query(`SELECT count(*)::int AS n FROM status_events WHERE order_id = $1 AND published_at IS NULL`, [orderId]))
            .rows[0].n,
        (n) => n === 0,
        10_000,
      );
      expect(await count()).toBe(2);
      const msg = await jsm.streams.getMessage('CROSS_CHAIN_STATUS', { last_by_subj: subject });
      expect(msg.header.get('Nats-Msg-Id')).toBe(`${orderId}:${txHash}:2`);
      expect(JSON.parse(new TextDecoder().decode(msg.data))).toMatchObject({ orderId, txHash, seq: '2', status: 'SUCCESS' });
    } finally {
      await nc.close();
    }
  });

  it('delivers transitions recorded before the registration; a receiver failing twice gets each on retry exactly once, in order', async () => {
    const { orderId, txHash } = done!;
    const reg = await register(orderId, txHash, receiver.url('/flaky/b'));
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ status: 'SUCCESS', recordedEvents: 2 });
    const mine = (): Received[] => receiver.received.filter((r) => r.path === '/flaky/b');
    await until(
      'both events delivered',
      async () => mine().filter((r) => r.answered === 200).length,
      (n) => n >= 2,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 2_500));
    expect(mine().map((r) => [JSON.parse(r.body).seq, r.answered])).toEqual([
      [1, 500],
      [1, 500],
      [1, 200],
      [2, 200],
    ]);
    // Retries are the same event: same id, a fresh signature each time (new timestamp).
    expect(
      new Set(
        mine()
          .slice(0, 3)
          .map((r) => r.headers['x-tokensvc-event-id']),
      ).size,
    ).toBe(1);
    for (const r of mine())
      expect(
        verifySignature(reg.body.secret, r.headers['x-tokensvc-signature'] as string, r.headers['x-tokensvc-timestamp'] as string, r.body),
      ).toBe(true);
    const rows = await tw.db.query<{ seq: number; attempts: number; status_code: number }>(
      `SELECT seq, attempts, status_code FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq`,
      [reg.body.id],
    );
    expect(rows.rows).toEqual([
      { seq: 1, attempts: 3, status_code: 200 },
      { seq: 2, attempts: 1, status_code: 200 },
    ]);
  });

  it('counts a redirect, an error status or no answer as a failure, and gives a webhook up after its attempts', async () => {
    const { orderId, txHash } = done!;
    const attempts = async (outcome: string): Promise<number> =>
      (await TRACKER_METRICS.webhookDeliveries.get()).values.find(
        (v) => v.metricName === 'status_tracker_webhook_delivery_duration_seconds_count' && v.labels['outcome'] === outcome,
      )?.value ?? 0;
    const metrics = async (): Promise<number[]> => [
      await attempts('http_5xx'),
      await attempts('redirect'),
      await attempts('timeout'),
      (await TRACKER_METRICS.webhooksGivenUp.get()).values[0]?.value ?? 0,
    ];
    const before = await metrics();
    const hooks = await Promise.all(
      ['/down/d', '/redirect/e', '/slow/f'].map(async (p) => (await register(orderId, txHash, receiver.url(p))).body.id as string),
    );
    const state = async (): Promise<
      Array<{ id: string; state: string; failed_attempts: number; last_error: string; delivered_seq: number }>
    > =>
      (
        await tw.db.query(
          `SELECT id, state, failed_attempts, last_error, delivered_seq FROM webhooks WHERE id = ANY($1::uuid[]) ORDER BY url`,
          [hooks],
        )
      ).rows;
    // 3 attempts each (WEBHOOK_MAX_ATTEMPTS), 0.2 s then 0.4 s apart; the slow one waits out 2 s each.
    const rows = await until('all given up', state, (r) => r.every((w) => w.state === 'failed'), 30_000);
    expect(rows.map((w) => [w.failed_attempts, w.delivered_seq])).toEqual([
      [3, 0],
      [3, 0],
      [3, 0],
    ]);
    const byPath = (p: string): Received[] => receiver.received.filter((r) => r.path === p);
    expect(byPath('/down/d').map((r) => JSON.parse(r.body).seq)).toEqual([1, 1, 1]); // never past the failing event
    expect(byPath('/redirect/e')).toHaveLength(3);
    expect(byPath('/slow/f')).toHaveLength(3);
    expect(byPath('/ok/redirected')).toEqual([]);
    const errors = rows.map((w) => w.last_error).join(' | ');
    expect(errors).toMatch(/event 1: answered 503/);
    expect(errors).toMatch(/event 1: answered 302; redirects are not followed/);
    expect(errors).toMatch(/event 1: no response within 2000 ms/);
    // webhook delivery metrics: three failed attempts of each kind, three webhooks given up
    expect(await metrics()).toEqual([before[0]! + 3, before[1]! + 3, before[2]! + 3, before[3]! + 3]);
  });

  it('refuses private, loopback, link-local and non-https destinations with 400 naming url; unknown orders 404', async () => {
    const { orderId, txHash } = done!;
    const cases: Array<[string, RegExp]> = [
      ['https://10.1.2.3/hook', /10\.1\.2\.3, a private \(RFC 1918\) address/],
      ['https://192.168.0.10/hook', /private \(RFC 1918\)/],
      ['https://100.64.1.1/hook', /carrier-grade NAT/],
      ['https://169.254.169.254/latest/meta-data/', /cloud metadata/],
      ['https://127.0.0.2/hook', /loopback/],
      ['https://[::1]/hook', /loopback/],
      ['https://[::ffff:10.0.0.1]/hook', /IPv4-mapped/],
      ['https://[fd00::1]/hook', /unique-local/],
      ['https://localhost/hook', /loopback/],
      ['http://hooks.example.com/hook', /must use https/],
      ['ftp://hooks.example.com/hook', /must use https, not ftp/],
      ['https://user:secret@hooks.example.com/hook', /credentials/],
    ];
    for (const [url, why] of cases) {
      const r = await register(orderId, txHash, url);
      expect([url, r.status]).toEqual([url, 400]);
      expect(r.body.message).toMatch(/^invalid url "/);
      expect(r.body.message).toMatch(why);
    }
    const unknown = await register(randomUUID(), `0x${randomBytes(32).toString('hex')}`, receiver.url('/ok/never'));
    expect(unknown.status).toBe(404);
    const malformed = await register('not-a-uuid', txHash, receiver.url('/ok/never'));
    expect(malformed.status).toBe(400);
    expect((await register(orderId, '0x1234', receiver.url('/ok/never'))).body.message).toMatch(/txHash/);
    expect(receiver.received.filter((r) => r.path === '/ok/never')).toEqual([]);
  });

  it('a webhook belongs to the key that registered it: another key neither sees, replaces nor deletes it (404); anonymous ones to the owner token their registration returned', async () => {
    const { orderId, txHash } = await heldOrder();
    const [a, b] = await issueKeys(2);
    const regA = await register(orderId, txHash, receiver.url('/ok/owned-a'), a);
    expect(regA.status).toBe(201);
    const idA = regA.body.id as string;
    // Key A sees it (no secret); key B and an anonymous caller see nothing.
    const listA = await hooksCall('GET', { orderId, txHash }, a);
    expect(listA).toMatchObject({
      status: 200,
      body: {
        webhooks: [
          {
            id: idA,
            orderId,
            txHash,
            url: receiver.url('/ok/owned-a'),
            state: 'active',
            deliveredEvents: expect.any(Number),
            createdAt: expect.any(String),
          },
        ],
      },
    });
    expect(listA.body.webhooks[0]).not.toHaveProperty('secret');
    expect(await hooksCall('GET', { orderId, txHash }, b)).toEqual({ status: 200, body: { webhooks: [] } });
    expect(await hooksCall('GET', { orderId, txHash, ownerToken: `0x${'12'.repeat(32)}` })).toEqual({
      status: 200,
      body: { webhooks: [] },
    });
    // Key B can neither delete nor replace it: answered as a webhook that does not exist.
    const delB = await hooksCall('DELETE', { id: idA }, b);
    expect(delB).toMatchObject({ status: 404, body: { message: expect.stringContaining(`no webhook ${idA} registered by this caller`) } });
    expect((await hooksCall('DELETE', { id: idA, ownerToken: `0x${'12'.repeat(32)}` })).status).toBe(404);
    const replB = await register(orderId, txHash, receiver.url('/ok/owned-b'), b, { replaces: idA });
    expect(replB).toMatchObject({ status: 404, body: { message: expect.stringContaining(`no webhook ${idA} of yours`) } });
    expect((await tw.db.query(`SELECT owner FROM webhooks WHERE order_id = $1`, [orderId])).rows).toHaveLength(1);
    // Key A replaces it (the old one goes in the same transaction), then deletes the new one.
    const replA = await register(orderId, txHash, receiver.url('/ok/owned-a2'), a, { replaces: idA });
    expect(replA.status).toBe(201);
    const listA2 = await hooksCall('GET', { orderId, txHash }, a);
    expect(listA2.body.webhooks.map((w: { id: string; url: string }) => [w.id, w.url])).toEqual([
      [replA.body.id, receiver.url('/ok/owned-a2')],
    ]);
    expect((await hooksCall('DELETE', { id: idA }, a)).status).toBe(404); // replaced: gone
    expect(await hooksCall('DELETE', { id: replA.body.id }, a)).toEqual({ status: 200, body: { id: replA.body.id } });
    expect(await hooksCall('GET', { orderId, txHash }, a)).toEqual({ status: 200, body: { webhooks: [] } });
    // An anonymous registration belongs to the owner token it returns (stored only as its hash), not
    // to the client address: the address alone is a 400, another token or a key sees nothing.
    const anon = await register(orderId, txHash, receiver.url('/ok/owned-anon'));
    expect(anon.status).toBe(201);
    const ownerToken = anon.body.ownerToken as string;
    expect(ownerToken).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await tw.db.query(`SELECT owner FROM webhooks WHERE id = $1`, [anon.body.id])).rows).toEqual([
      { owner: expect.stringMatching(/^token:[0-9a-f]{64}$/) },
    ]);
    expect((await hooksCall('GET', { orderId, txHash })).status).toBe(400);
    expect((await hooksCall('GET', { orderId, txHash, ownerToken })).body.webhooks.map((w: { id: string }) => w.id)).toEqual([
      anon.body.id,
    ]);
    expect((await hooksCall('GET', { orderId, txHash }, a)).body.webhooks).toEqual([]);
    expect((await hooksCall('DELETE', { id: anon.body.id }, a)).status).toBe(404);
    expect((await hooksCall('DELETE', { id: anon.body.id, ownerToken: `0x${'12'.repeat(32)}` })).status).toBe(404);
    expect((await hooksCall('DELETE', { id: anon.body.id, ownerToken })).status).toBe(200);
    const owners = await tw.db.query<{ n: string }>(`SELECT count(*) AS n FROM webhooks WHERE order_id = $1`, [orderId]);
    expect(Number(owners.rows[0]!.n)).toBe(0);
  });

  it('concurrent registrations never pass WEBHOOK_MAX_PER_ORDER (10): exactly 10 of 30 created, the rest 409', async () => {
    const { orderId, txHash } = await heldOrder();
    const [k1, k2, k3] = await issueKeys(3);
    const keys = [k1!, k2!, k3!];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => register(orderId, txHash, receiver.url(`/ok/cap-${i}`), keys[i % 3])),
    );
    const byStatus = answers.reduce<Record<number, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {});
    expect(byStatus).toEqual({ 201: 10, 409: 20 });
    for (const r of answers.filter((x) => x.status === 409))
      expect(r.body.message).toMatch(new RegExp(`order ${orderId} has 10 webhooks already`));
    const { rows } = await tw.db.query<{ n: string }>(`SELECT count(*) AS n FROM webhooks WHERE order_id = $1`, [orderId]);
    expect(Number(rows[0]!.n)).toBe(10);
  });

  let streamed: SseMessage[] = [];
  let sseOrder: { orderId: string; txHash: string } | undefined;

  it('streams the current record, then every transition once, and closes after the terminal one', async () => {
    const { orderId, txHash } = await heldOrder();
    sseOrder = { orderId, txHash };
    const res = await get(`/v3/portal/status/stream?orderId=${orderId}&txHash=${txHash}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('ratelimit-limit')).toBeTruthy();
    const sse = new SseReader(res);
    await sse.until('the current record', (r) => r.events.length >= 1);
    const first = sse.events[0]!;
    expect(first.data).toMatchObject({ type: 'status.current', orderId, txHash, seq: first.id });
    expect(['PENDING', 'ONGOING']).toContain(first.data.record.status);
    await sse.until('ONGOING', (r) => r.events.some((e) => e.data.record.status === 'ONGOING'));
    await sse.until('a heartbeat', (r) => r.messages.some((m) => m.comment === 'keep-alive'));
    tw.relayer.setMode('normal');
    await sse.until('the end of the stream', (r) => r.done);
    const arrived = Date.now();
    process.stdout.write(
      `[push] SUCCESS committed -> SSE event read by the client: about ${arrived - Date.parse(sse.events.at(-1)!.data.createdAt)} ms (upper bound: polled every 50 ms)\n`,
    );
    const final = await status(orderId, txHash);
    expect(final.status).toBe('SUCCESS');
    const ids = sse.events.map((e) => e.id);
    expect(ids).toEqual(first.id === 0 ? [0, 1, 2] : [1, 2]);
    const last = sse.events.at(-1)!;
    expect(last.data).toMatchObject({ type: 'status.success', seq: 2, id: `${orderId}:${txHash}:2` });
    expect(last.data.record).toEqual(final);
    streamed = sse.events;
  });

  it('resumes after Last-Event-ID without loss or repeat; 204 when nothing is left; 400 for an id it never sent', async () => {
    const { orderId, txHash } = sseOrder!;
    const q = `/v3/portal/status/stream?orderId=${orderId}&txHash=${txHash}`;
    const after1 = new SseReader(await get(q, { 'last-event-id': '1' }));
    await after1.until('the end', (r) => r.done);
    expect(after1.events.map((e) => e.data)).toEqual([streamed.at(-1)!.data]);
    const after0 = new SseReader(await get(`${q}&lastEventId=0`));
    await after0.until('the end', (r) => r.done);
    expect(after0.events.map((e) => [e.id, e.data.type])).toEqual([
      [1, 'status.ongoing'],
      [2, 'status.success'],
    ]);
    const nothing = await get(q, { 'last-event-id': '2' });
    expect(nothing.status).toBe(204);
    const ahead = await get(q, { 'last-event-id': '7' });
    expect(ahead.status).toBe(400);
    expect(((await ahead.json()) as { message: string }).message).toMatch(/Last-Event-ID 7 is ahead/);
    const garbage = await get(q, { 'last-event-id': 'x1' });
    expect(garbage.status).toBe(400);
    // A fresh stream on a terminal order: its record, then closed.
    const fresh = new SseReader(await get(q));
    await fresh.until('the end', (r) => r.done);
    expect(fresh.events.map((e) => [e.id, e.data.type, e.data.record.status])).toEqual([[2, 'status.current', 'SUCCESS']]);
  });

  it('answers 404 and 400 like GET /v3/portal/status, and bounds open streams per client', async () => {
    const unknown = await get(`/v3/portal/status/stream?orderId=${randomUUID()}&txHash=0x${randomBytes(32).toString('hex')}`);
    expect(unknown.status).toBe(404);
    expect((await get(`/v3/portal/status/stream?orderId=${randomUUID()}`)).status).toBe(400);
    expect((await get(`/v3/portal/status/stream?orderId=not-a-uuid&txHash=0x${'ab'.repeat(32)}`)).status).toBe(400);
    // An order that stays ONGOING (the relayer is offline): streams stay open.
    const { orderId, txHash } = await heldOrder();
    const q = `/v3/portal/status/stream?orderId=${orderId}&txHash=${txHash}`;
    const streams = [await openRaw(q), await openRaw(q), await openRaw(q)];
    expect(streams.map((s) => s.res.statusCode)).toEqual([200, 200, 200]);
    const fourth = await openRaw(q);
    expect(fourth.res.statusCode).toBe(429);
    expect(JSON.parse(await fourth.body()).message).toMatch(/too many open status streams for this client: at most 3/);
    streams[0]!.req.destroy();
    // The gateway notices the closed connection and gives the slot back.
    const again = await until(
      'a slot back',
      async () => {
        const s = await openRaw(q);
        if (s.res.statusCode !== 200) s.req.destroy();
        return s;
      },
      (s) => s.res.statusCode === 200,
      10_000,
    );
    for (const s of [streams[1]!, streams[2]!]) s.req.destroy();
    held = again;
  });

  it('ends open streams when the gateway stops (SIGTERM), and exits cleanly', async () => {
    let ended = false;
    held!.res.on('end', () => (ended = true));
    const t = Date.now();
    gateway.child.kill('SIGTERM');
    const code = await Promise.race([gateway.exited, new Promise((r) => setTimeout(() => r('still running'), 15_000))]);
    expect(code).toBe(0);
    expect(ended).toBe(true);
    expect(Date.now() - t).toBeLessThan(15_000);
  });
});
