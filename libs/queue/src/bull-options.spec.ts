import { bullConnection, bullWorkerOptions } from './bull-options';

describe('bullConnection', () => {
  it('takes host, port, db and the decoded credentials from the URL, with no per-request retry cap', () => {
    expect(bullConnection('redis://user:p%40ss%2Fw@cache.internal:6380/3')).toEqual({
      host: 'cache.internal',
      port: 6380,
      username: 'user',
      password: 'p@ss/w',
      db: 3,
      maxRetriesPerRequest: null,
    });
  });

  it('defaults the port and db, and turns TLS on for rediss:', () => {
    expect(bullConnection('rediss://cache.internal')).toEqual({
      host: 'cache.internal',
      port: 6379,
      db: 0,
      tls: {},
      maxRetriesPerRequest: null,
    });
  });
});

describe('bullWorkerOptions', () => {
  const settings = { redisUrl: 'redis://127.0.0.1:6379', prefix: 'bull', concurrency: 8 };

  it('checks for stalled jobs every half lock', () => {
    expect(bullWorkerOptions({ ...settings, lockMs: 30_000 })).toEqual({
      connection: bullConnection(settings.redisUrl),
      prefix: 'bull',
      concurrency: 8,
      lockDuration: 30_000,
      stalledInterval: 15_000,
      maxStalledCount: 1_000,
    });
  });

  it('checks no more often than every 500 ms under a short lock', () => {
    expect(bullWorkerOptions({ ...settings, lockMs: 600 })).toMatchObject({ lockDuration: 600, stalledInterval: 500 });
    expect(bullWorkerOptions({ ...settings, lockMs: 1_501 })).toMatchObject({ stalledInterval: 750 });
  });

  it("leaves the lock and the stalled check to BullMQ's defaults without lockMs", () => {
    const o = bullWorkerOptions(settings);
    expect(o).not.toHaveProperty('lockDuration');
    expect(o).not.toHaveProperty('stalledInterval');
    expect(o).toMatchObject({ prefix: 'bull', concurrency: 8, maxStalledCount: 1_000 });
  });
});
