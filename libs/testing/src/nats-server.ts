import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUS_USERS, natsServerConfig, type BusUser } from '@tokensvc/transport';
import { stopChild, waitReachable } from './net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A private nats-server (JetStream on) on its own port, so a test can stop and restart the bus
 * without touching the machine's shared one. With `auth`, it runs the production permissions
 * (natsServerConfig: one user per app, random passwords) and the apps connect as their own users
 * (`passwords` into PlatformEnv.natsPasswords).
 */
export class PrivateNatsServer {
  private child: ChildProcess | undefined;
  private readonly storeDir = mkdtempSync(join(tmpdir(), 'nats-js-'));
  /** each app's password when started with `auth` */
  readonly passwords: Record<BusUser, string> | undefined;
  constructor(
    readonly port: number,
    opts: { auth?: boolean } = {},
  ) {
    this.passwords = opts.auth
      ? (Object.fromEntries(BUS_USERS.map((u) => [u, randomBytes(12).toString('hex')])) as Record<BusUser, string>)
      : undefined;
  }

  /** the server's URL, without credentials */
  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** the URL with a user's credentials (the plain URL when the server has no users) */
  urlFor(user: BusUser): string {
    return this.passwords ? `nats://${user}:${this.passwords[user]}@127.0.0.1:${this.port}` : this.url;
  }

  async start(): Promise<void> {
    let args = ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir];
    if (this.passwords) {
      const conf = join(this.storeDir, 'nats.conf');
      writeFileSync(conf, natsServerConfig({ passwords: this.passwords, listen: `127.0.0.1:${this.port}`, storeDir: this.storeDir }), {
        mode: 0o600,
      });
      args = ['-c', conf];
    }
    this.child = spawn('nats-server', args, { stdio: 'ignore' });
    await waitReachable(() => canConnect(this.port), `nats-server did not start on port ${this.port}`);
  }

  async stop(): Promise<void> {
    const c = this.child;
    this.child = undefined;
    await stopChild(c);
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
