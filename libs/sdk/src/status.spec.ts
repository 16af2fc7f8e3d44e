import type { ServerResponse } from 'node:http';
import { createTokensvc, TokensvcError, TokensvcTimeoutError, waitForStatus, type CrossChainStatus } from './index';
import { errorBody, FakeServer, json } from './testing/fake-server';

const ORDER = '0b1c8a2e-0000-4000-8000-000000000001';
const TX = `0x${'ab'.repeat(32)}`;
const record = (status: CrossChainStatus['status']): CrossChainStatus =>
  ({
    txHash: TX,
    status,
    destinationTxHashes: status === 'SUCCESS' ? [`0x${'cd'.repeat(32)}`] : [],
    originTxHashes: [TX],
    fromChainId: 1,
    toChainId: 8453,
  }) as CrossChainStatus;
const TYPES = {
  PENDING: 'status.current',
  ONGOING: 'status.ongoing',
  SUCCESS: 'status.success',
  REFUND_STATUS: 'status.refund_status',
  FAILED: 'status.failed',
} as const;
const event = (seq: number, status: CrossChainStatus['status']): string =>
  `id: ${seq}\ndata: ${JSON.stringify({ id: `${ORDER}:${TX}:${seq}`, type: TYPES[status], seq, orderId: ORDER, txHash: TX, createdAt: new Date().toISOString(), record: record(status) })}\n\n`;
const openStream = (res: ServerResponse): void => {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.write('retry: 100\n\n');
};

describe('waitForStatus (fake server on loopback): SSE with Last-Event-ID resume, polling fallback, abort, timeout', () => {
  let server: FakeServer;
  beforeEach(async () => {
    server = await new FakeServer().start();
  });
  afterEach(() => server.stop());

  it('follows the stream; a dropped stream is resumed with Last-Event-ID, no event lost or repeated', async () => {
    let connection = 0;
    server.handler = (req, res, url) => {
      expect(url.pathname).toBe('/v3/portal/status/stream');
      expect(Object.fromEntries(url.searchParams)).toEqual({ orderId: ORDER, txHash: TX });
      openStream(res);
      if (connection++ === 0) {
        res.write(event(1, 'PENDING'));
        res.write(': keep-alive\n\n');
        res.end(event(2, 'ONGOING')); // the connection drops before the terminal event
      } else {
        expect(req.headers['last-event-id']).toBe('2');
        res.end(event(3, 'SUCCESS'));
      }
    };
    const svc = createTokensvc({ baseUrl: server.baseUrl, apiKey: 'k' });
    const seen: string[] = [];
    const done = await waitForStatus(svc, { orderId: ORDER, txHash: TX }, { onUpdate: (r) => seen.push(r.status), timeoutMs: 10_000 });
    expect(done).toEqual(record('SUCCESS'));
    expect(seen).toEqual(['PENDING', 'ONGOING', 'SUCCESS']);
    expect(server.requests.map((r) => [r.headers['last-event-id'], r.headers['accept'], r.headers['authorization']])).toEqual([
      [undefined, 'text/event-stream', 'Bearer k'],
      ['2', 'text/event-stream', 'Bearer k'],
    ]);
  });

  it('a 204 on resume (terminal, nothing left) returns the last record seen', async () => {
    let connection = 0;
    server.handler = (_req, res) => {
      if (connection++ === 0) {
        openStream(res);
        res.end(event(1, 'ONGOING'));
      } else {
        res.writeHead(204);
        res.end();
      }
    };
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    await expect(waitForStatus(svc, { orderId: ORDER, txHash: TX }, { timeoutMs: 10_000 })).resolves.toEqual(record('ONGOING'));
  });

  it('falls back to polling GET /v3/portal/status when the stream is refused (429: too many streams)', async () => {
    const polled: string[] = ['PENDING', 'ONGOING', 'SUCCESS'];
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v3/portal/status/stream')
        return json(res, 429, errorBody(429, 'Too Many Requests', 'too many streams', 'rate_limited'), { 'retry-after': '5' });
      expect(url.pathname).toBe('/v3/portal/status');
      json(res, 200, record(polled.shift() as CrossChainStatus['status']));
    };
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    const seen: string[] = [];
    const done = await waitForStatus(svc, { orderId: ORDER, txHash: TX }, { pollMs: 20, onUpdate: (r) => seen.push(r.status) });
    expect(done.status).toBe('SUCCESS');
    expect(seen).toEqual(['PENDING', 'ONGOING', 'SUCCESS']);
    expect(server.paths()).toEqual(['/v3/portal/status/stream', '/v3/portal/status', '/v3/portal/status', '/v3/portal/status']);
  });

  it('falls back to polling after maxReconnects streams in a row end without a final status, and polls only when sse is false', async () => {
    server.handler = (_req, res, url) => {
      if (url.pathname.endsWith('/stream')) {
        openStream(res);
        return void res.end(); // a stream that ends at once, every time
      }
      json(res, 200, record('FAILED'));
    };
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    expect((await waitForStatus(svc, { orderId: ORDER, txHash: TX }, { maxReconnects: 2 })).status).toBe('FAILED');
    expect(server.paths()).toEqual([...Array(3).fill('/v3/portal/status/stream'), '/v3/portal/status']);

    server.requests.length = 0;
    expect((await waitForStatus(svc, { orderId: ORDER, txHash: TX }, { sse: false })).status).toBe('FAILED');
    expect(server.paths()).toEqual(['/v3/portal/status']);
  });

  it('a 404 of the stream (order found nowhere) is thrown as it is, not polled', async () => {
    server.handler = (_req, res) => json(res, 404, errorBody(404, 'Not Found', 'order not found', 'not_found'));
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    const err = await waitForStatus(svc, { orderId: ORDER, txHash: TX }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TokensvcError);
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
    expect(server.requests).toHaveLength(1);
  });

  it('an AbortSignal ends a wait on an open stream; the timeout ends it with a TokensvcTimeoutError', async () => {
    const open: ServerResponse[] = [];
    server.handler = (_req, res) => {
      openStream(res);
      res.write(event(1, 'ONGOING'));
      open.push(res); // stays open, as a stream of an order in flight
    };
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(new Error('user left')), 200);
    let t = Date.now();
    await expect(waitForStatus(svc, { orderId: ORDER, txHash: TX }, { signal: ctl.signal })).rejects.toThrow('user left');
    expect(Date.now() - t).toBeLessThan(5000);

    t = Date.now();
    const err = await waitForStatus(svc, { orderId: ORDER, txHash: TX }, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TokensvcTimeoutError);
    expect((err as Error).message).toMatch(/no final status within 300 ms/);
    expect(Date.now() - t).toBeLessThan(5000);
    await expect(waitForStatus(svc, { orderId: ORDER, txHash: TX }, { signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow(
      'already',
    );
  });

  it('a same-chain order is polled on GET /v2/portal/status until the relayer is done', async () => {
    const states = ['quoted', 'pending', 'mined'];
    server.handler = (_req, res, url) => {
      expect(url.pathname).toBe('/v2/portal/status');
      expect(url.searchParams.get('orderId')).toBe(ORDER);
      json(res, 200, { status: states.shift(), txHashes: [TX] });
    };
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    const seen: string[] = [];
    const done = await waitForStatus(svc, { orderId: ORDER }, { pollMs: 20, onUpdate: (r) => seen.push(r.status) });
    expect(done).toEqual({ status: 'mined', txHashes: [TX] });
    expect(seen).toEqual(['quoted', 'pending', 'mined']);
  });
});
