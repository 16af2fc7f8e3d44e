import { spawn, type ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { loadServiceConfig, redisConnectionOptions } from '@tokensvc/config';
import { freePort, hasBinary, tcpReachableUrl } from '@tokensvc/testing';

jest.setTimeout(30_000);

/**
 * A Redis with a password, as `npm start` and the production manifests run it: REDIS_PASSWORD (any
 * characters) reaches both ways the apps connect, ioredis with the URL (gateway, relayer counters)
 * and BullMQ's options (redisConnectionOptions: quote's and status-tracker's queues).
 */
describe('Redis with a password', () => {
  const PASSWORD = 'p@ss:w/rd%20#?';
  let port = 0;
  let server: ChildProcess;
  beforeAll(async () => {
    if (!hasBinary('redis-server')) throw new Error('redis-server binary is required for this test (apt-get install redis-server)');
    port = await freePort();
    server = spawn('redis-server', ['-', '--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    server.stdin?.end(`requirepass "${PASSWORD.replace(/"/g, '\\"')}"\n`);
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      if (await tcpReachableUrl(`redis://127.0.0.1:${port}`)) return;
    }
    throw new Error('redis-server did not start');
  });
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
  });

  const ping = async (client: Redis): Promise<string> => {
    try {
      return await client.ping();
    } catch (e) {
      return (e as Error).message;
    } finally {
      client.disconnect();
    }
  };

  it('connects with REDIS_PASSWORD through the URL and through the queue options; refuses without it', async () => {
    const { redisUrl } = loadServiceConfig('quote', { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PASSWORD: PASSWORD });
    expect(await ping(new Redis(redisUrl, { maxRetriesPerRequest: 0 }))).toBe('PONG');
    expect(await ping(new Redis({ ...redisConnectionOptions(redisUrl), maxRetriesPerRequest: 0 }))).toBe('PONG');
    expect(await ping(new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 0 }).on('error', () => undefined))).toMatch(/NOAUTH/);
  });
});
