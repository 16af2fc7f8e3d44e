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

  it('answers 500 with the message when the handler throws, and lists the routes on a 404', async () => {
    const broken = await fetch(`${base}/broken`);
    expect(broken.status).toBe(500);
    expect(await broken.json()).toMatchObject({ statusCode: 500, message: 'no status yet' });
    const missing = await fetch(`${base}/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toBe('no route /nope; try /health, /health/ready, /metrics, /status, /broken');
  });
});
