/* In tools/: a test of libs/transport that needs @tokensvc/testing, which itself imports transport (no cycle between the two libraries). */
import { freePort, INFRA, PrivateNatsServer, PrivateRedisServer } from '@tokensvc/testing';
import { checkBusAuth, probeBusAuth, probeNatsAuth, probeRedisAuth } from '@tokensvc/transport';

jest.setTimeout(30_000);

/**
 * The start-time probe of the bus (bus-auth.ts): a client without credentials is served by the
 * shared development NATS and Redis (open) and refused by a NATS with the per-app users and a
 * Redis with a password (enforced).
 */
describe('bus auth probe', () => {
  const nats = { private: undefined as PrivateNatsServer | undefined };
  let redis: PrivateRedisServer;
  beforeAll(async () => {
    nats.private = new PrivateNatsServer(await freePort(), { auth: true });
    await nats.private.start();
    redis = new PrivateRedisServer(await freePort());
    await redis.start();
  });
  afterAll(async () => {
    await nats.private?.dispose();
    await redis?.stop();
  });

  it('reports the shared open NATS and Redis as open, the permissioned ones as enforced, an unreachable one as unknown', async () => {
    expect((await probeNatsAuth(INFRA.nats)).auth).toBe('open');
    expect((await probeNatsAuth(nats.private!.urlFor('quote'))).auth).toBe('enforced');
    expect((await probeNatsAuth(`nats://127.0.0.1:${await freePort()}`)).auth).toBe('unknown');
    expect((await probeRedisAuth(INFRA.redis)).auth).toBe('open');
    expect((await probeRedisAuth(redis.authUrl)).auth).toBe('enforced');
    expect((await probeRedisAuth(`redis://127.0.0.1:${await freePort()}`)).auth).toBe('unknown');
  });

  it('states it in one line, without the passwords', async () => {
    const enforced = await probeBusAuth({ natsUrl: nats.private!.urlFor('quote'), redisUrl: redis.authUrl }, { usesRedis: true });
    expect(enforced).toEqual({
      nats: 'enforced',
      redis: 'enforced',
      statement: `bus: NATS at ${nats.private!.url} enforces users (connected as quote); Redis at redis://***@127.0.0.1:${redis.port} requires a password`,
    });
    expect(enforced.statement).not.toContain(redis.password);
    const open = await probeBusAuth({ natsUrl: INFRA.nats, redisUrl: INFRA.redis }, { usesRedis: false });
    expect(open.redis).toBeUndefined();
    expect(open.statement).toMatch(
      /^bus: NATS at nats:\/\/.* accepts unauthenticated clients: the per-app subject permissions are NOT in force, any local process can ask for paid data; run NATS with the users of deploy\/nats\/tokensvc-auth.conf/,
    );
  });

  it('in the production configuration (registry set), refuses an open bus; otherwise warns', async () => {
    const lines: string[] = [];
    const logger = { info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`) };
    await expect(
      checkBusAuth('token-data', { natsUrl: INFRA.nats, redisUrl: INFRA.redis, registry: 'shipped' }, { usesRedis: false }, logger),
    ).rejects.toThrow(/token-data refuses to start: in the production configuration/);
    await expect(
      checkBusAuth(
        'gateway',
        { natsUrl: nats.private!.urlFor('gateway'), redisUrl: INFRA.redis, registry: 'shipped' },
        { usesRedis: true },
        logger,
      ),
    ).rejects.toThrow(/run Redis with a password/);
    await checkBusAuth('token-data', { natsUrl: INFRA.nats, redisUrl: INFRA.redis }, { usesRedis: false }, logger);
    await checkBusAuth(
      'gateway',
      { natsUrl: nats.private!.urlFor('gateway'), redisUrl: redis.authUrl, registry: 'shipped' },
      { usesRedis: true },
      logger,
    );
    expect(lines).toEqual([
      expect.stringMatching(/^warn bus: NATS at .* accepts unauthenticated clients/),
      expect.stringMatching(/^info bus: NATS at .* enforces users \(connected as gateway\); Redis at .* requires a password$/),
    ]);
  });
});
