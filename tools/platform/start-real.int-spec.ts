/**
 * `npm run start:real` runs the production configuration: the shipped registry and no devnet
 * manifest. Pointed at the devnet's ethereum node (chain id 1, but none of the real deployments),
 * the indexer's preflight refuses the scope, naming the real Uniswap V2 factory it cannot find,
 * and the platform stops: proof that the command reads the shipped address book and that a wrong
 * endpoint stops at start instead of indexing nothing. (Serving real data needs real RPC URLs,
 * which this machine cannot reach.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, INFRA, testDevnet } from '@tokensvc/testing';

jest.setTimeout(150_000);

describe('npm run start:real', () => {
  const url = createTestDatabaseUrl('start_real');
  const dir = mkdtempSync(join(tmpdir(), 'start-real-'));
  afterAll(async () => {
    await dropDatabase(url);
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the apps with the shipped registry and stops when the indexer preflight refuses the endpoint', async () => {
    const ethereum = testDevnet().rpcUrls.ethereum!;
    const root = join(__dirname, '..', '..');
    const env = {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      DATABASE_URL: url,
      NATS_URL: INFRA.nats,
      REDIS_URL: INFRA.redis,
      RPC_URL_ETHEREUM: ethereum,
      PORT: String(await freePort()),
      HEALTH_PORT_BASE: String((await freePort()) - 1),
      REAL_STATE_DIR: dir,
      LOG_LEVEL: 'warn',
    };
    const child = spawn(process.execPath, ['-r', join(root, 'tools', 'register.js'), join(root, 'tools', 'platform', 'start-real.ts')], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    // the shared NATS and Redis serve clients without credentials, which the apps refuse in this
    // configuration: start:real runs its own with users and a password
    expect(out).toMatch(
      /bus: NATS started here with one user per app at nats:\/\/127\.0\.0\.1:\d+ \(the one at .* accepts unauthenticated clients\); Redis started here with a password/,
    );
    expect(out).not.toContain('refuses to start');
    expect(out).toMatch(/networks: ethereum \(http:\/\/127\.0\.0\.1:\d+; the last 1 day\(s\)\)/);
    expect(out).toMatch(
      /nothing was written.*uniswap-v2 factory 0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f has no code at block \d+ on chain 1/,
    );
    expect(out).toContain('indexer exited with code 1; stopping the platform');
    expect(code).toBe(1);
  });
});
