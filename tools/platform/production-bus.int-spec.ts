/**
 * The production configuration (REGISTRY set: real networks) refuses an open bus: an app started
 * on a NATS that serves clients without credentials exits at once, saying what to do, instead of
 * running with the per-app subject permissions off. On a NATS with the users it states that the
 * bus enforces them and starts.
 */
import {
  appEnv,
  freePort,
  freePortRange,
  INFRA,
  PrivateNatsServer,
  startApp,
  stopProcess,
  waitForHttp,
  type AppProcess,
  type PlatformEnv,
} from '@tokensvc/testing';

jest.setTimeout(90_000);

describe('an app in the production configuration', () => {
  let nats: PrivateNatsServer;
  const procs: AppProcess[] = [];
  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort(), { auth: true });
    await nats.start();
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => stopProcess(p)));
    await nats?.dispose();
  });

  const env = async (natsUrl: string, natsPasswords?: PlatformEnv['natsPasswords']): Promise<PlatformEnv> => ({
    databaseUrl: INFRA.postgres,
    natsUrl,
    natsPasswords,
    redisUrl: INFRA.redis,
    rpcUrls: { ethereum: 'http://127.0.0.1:9' },
    gatewayPort: await freePort(),
    healthPortBase: await freePortRange(5),
    logLevel: 'info',
    extraEnv: { REGISTRY: 'shipped' },
  });
  const start = (platform: PlatformEnv): { proc: AppProcess; lines: string[] } => {
    const lines: string[] = [];
    const proc = startApp('token-data', platform, (_app, line) => lines.push(line));
    procs.push(proc);
    return { proc, lines };
  };

  it('refuses to start on a NATS that accepts unauthenticated clients, saying what to do', async () => {
    const { proc, lines } = start(await env(INFRA.nats));
    expect(await proc.exited).toBe(1);
    expect(lines.join('\n')).toMatch(
      /token-data refuses to start: in the production configuration \(REGISTRY is set\) its bus must refuse unauthenticated clients; run NATS with the users of deploy\/nats\/tokensvc-auth.conf and give each app NATS_USER\/NATS_PASSWORD/,
    );
  });

  it('on a NATS with the per-app users, states that the bus enforces them and starts', async () => {
    const platform = await env(nats.url, nats.passwords);
    const { proc, lines } = start(platform);
    await waitForHttp(`http://127.0.0.1:${appEnv('token-data', platform)['HEALTH_PORT']}/health/ready`, 60_000).catch((e: Error) => {
      throw new Error(`${e.message}\n${lines.join('\n')}`);
    });
    expect(lines.find((l) => l.includes('bus: '))).toContain(`"msg":"bus: NATS at ${nats.url} enforces users (connected as token-data)"`);
    expect(proc.child.exitCode).toBeNull();
  });
});
