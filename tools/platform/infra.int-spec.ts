import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INFRA } from '@tokensvc/testing';
import { probeNatsAuth, probeRedisAuth } from '@tokensvc/transport';
import { ensureInfra, type StartedInfra } from './infra';

jest.setTimeout(60_000);

/**
 * `npm start`'s services (infra.ts): given the shared NATS and Redis, which serve clients without
 * credentials, it does not run the platform on them but starts a NATS with one user per app and a
 * Redis with a password on ports of their own, and hands the apps those URLs and passwords.
 */
describe('ensureInfra on an open bus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'infra-'));
  let infra: StartedInfra | undefined;
  afterAll(async () => {
    await infra?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts its own permissioned NATS and passworded Redis beside the open ones', async () => {
    expect((await probeNatsAuth(INFRA.nats)).auth).toBe('open');
    expect((await probeRedisAuth(INFRA.redis)).auth).toBe('open');
    const lines: string[] = [];
    infra = await ensureInfra({ databaseUrl: INFRA.postgres, natsUrl: INFRA.nats, redisUrl: INFRA.redis }, dir, (l) => lines.push(l));
    expect(infra.natsUrl).not.toBe(INFRA.nats);
    expect(infra.natsPasswords && Object.keys(infra.natsPasswords).sort()).toEqual([
      'gateway',
      'indexer',
      'quote',
      'status-tracker',
      'token-data',
    ]);
    expect((await probeNatsAuth(infra.natsUrl)).auth).toBe('enforced');
    expect(new URL(infra.redisUrl).port).not.toBe(new URL(INFRA.redis).port);
    expect((await probeRedisAuth(infra.redisUrl)).auth).toBe('enforced');
    expect(infra.bus).toMatch(
      /^bus: NATS started here with one user per app at nats:\/\/127\.0\.0\.1:\d+ \(the one at .* accepts unauthenticated clients\); Redis started here with a password at redis:\/\/\*\*\*@127\.0\.0\.1:\d+ \(the one at .* has no password\)$/,
    );
    const started = infra;
    infra = undefined;
    await started.stop();
    expect((await probeNatsAuth(started.natsUrl, 500)).auth).toBe('unknown');
  });
});
