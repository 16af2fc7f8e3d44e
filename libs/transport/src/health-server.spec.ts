import { createServer } from 'node:net';
import { HealthServer } from './health-server';

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('HealthServer JSON routes', () => {
  let health: HealthServer;
  let base: string;

  beforeAll(async () => {
    health = new HealthServer('test', {});
    let calls = 0;
    health.addJsonRoute('/status', async () => ({ networks: [{ network: 'ethereum', lag: calls++ }] }));
    health.addJsonRoute('/broken', () => {
      throw new Error('no status yet');
    });
    const port = await freePort();
    await health.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await health.close();
  });

  it('serves a handler value as JSON, computed per request', async () => {
    const first = await fetch(`${base}/status`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(await first.json()).toEqual({ networks: [{ network: 'ethereum', lag: 0 }] });
    expect(await (await fetch(`${base}/status?x=1`)).json()).toEqual({ networks: [{ network: 'ethereum', lag: 1 }] });
  });

  it('answers 500 without the error (it goes to onRouteError, for the log), and lists the routes on a 404', async () => {
    const seen: string[] = [];
    health.onRouteError = (path, e) => seen.push(`${path}: ${(e as Error).message}`);
    const broken = await fetch(`${base}/broken`);
    expect(broken.status).toBe(500);
    const body = JSON.stringify(await broken.json());
    expect(JSON.parse(body)).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: '/broken is not available; see the service log',
    });
    expect(body).not.toContain('no status yet');
    expect(seen).toEqual(['/broken: no status yet']);
    const missing = await fetch(`${base}/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toBe(
      'no route /nope; try /health, /health/live, /health/ready, /health/caught-up, /metrics, /status, /broken',
    );
  });
});

describe('HealthServer listener', () => {
  it('binds loopback by default, and the host it is given (HEALTH_HOST) otherwise', async () => {
    const port = await freePort();
    const loopback = new HealthServer('test', {});
    await loopback.listen(port);
    try {
      const address = (loopback as unknown as { server: { address(): { address: string } } }).server.address();
      expect(address.address).toBe('127.0.0.1');
      expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
    } finally {
      await loopback.close();
    }
    const open = new HealthServer('test', {});
    await open.listen(port, '0.0.0.0');
    try {
      expect((open as unknown as { server: { address(): { address: string } } }).server.address().address).toBe('0.0.0.0');
    } finally {
      await open.close();
    }
  });
});

describe('HealthServer probes: live, ready (serving in the queue group), caught up', () => {
  let health: HealthServer;
  let base: string;
  const state = { db: true, backfillDone: false };

  beforeAll(async () => {
    health = new HealthServer('test', { db: async () => state.db }, { backfill: async () => state.backfillDone });
    const port = await freePort();
    await health.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await health.close();
  });

  const probe = async (
    path: string,
  ): Promise<{ status: number; body: { status: string; phase?: string; checks?: Record<string, string> } }> => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, body: (await res.json()) as { status: string; phase?: string; checks?: Record<string, string> } };
  };

  it('is live in every phase, ready only while serving with its checks up, caught up only with its caught-up checks too', async () => {
    health.phase = 'starting';
    expect((await probe('/health/live')).status).toBe(200);
    expect(await probe('/health/ready')).toEqual({
      status: 503,
      body: expect.objectContaining({ status: 'unavailable', phase: 'starting', checks: { db: 'up' } }),
    });

    health.phase = 'serving';
    expect(await probe('/health/ready')).toEqual({
      status: 200,
      body: expect.objectContaining({ status: 'ok', phase: 'serving', checks: { db: 'up' } }),
    });
    // a backfill still running: ready, not caught up
    expect(await probe('/health/caught-up')).toEqual({
      status: 503,
      body: expect.objectContaining({ status: 'unavailable', checks: { db: 'up', backfill: 'down' } }),
    });
    state.backfillDone = true;
    expect((await probe('/health/caught-up')).status).toBe(200);

    state.db = false;
    expect((await probe('/health/ready')).status).toBe(503);
    state.db = true;

    health.phase = 'draining';
    expect((await probe('/health/live')).status).toBe(200);
    expect(await probe('/health/ready')).toEqual({ status: 503, body: expect.objectContaining({ phase: 'draining' }) });
    expect((await probe('/health/caught-up')).status).toBe(503);
  });
});
