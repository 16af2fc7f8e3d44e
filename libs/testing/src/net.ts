import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

export function hasBinary(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

const DEFAULT_PORTS: Record<string, number> = { 'postgres:': 5432, 'postgresql:': 5432, 'redis:': 6379, 'nats:': 4222, 'http:': 80 };

export function tcpReachableUrl(url: string, timeoutMs = 1000): Promise<boolean> {
  const u = new URL(url);
  const port = Number(u.port) || DEFAULT_PORTS[u.protocol] || 80;
  return new Promise((resolve) => {
    const sock = createConnection({ host: u.hostname, port });
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/** Whether nothing listens on `port` (any address: apps listen on 0.0.0.0, devnets on 127.0.0.1). */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '0.0.0.0', () => srv.close(() => resolve(true)));
  });
}

/**
 * A base port such that base..base+count-1 are all free now: for settings that take one base and
 * add to it (HEALTH_PORT_BASE, DEVNET_BASE_PORT), where an ephemeral port's neighbours may be taken.
 */
export async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 12_000); // below Linux's ephemeral ports
    let free = true;
    for (let p = base; p < base + count && free; p++) free = await portFree(p);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

/** Polls `reachable` every 50 ms until it answers true; throws `what` after `timeoutMs`. */
export async function waitReachable(reachable: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    if (await reachable()) return;
  }
  throw new Error(what);
}

/** SIGTERM to a child this process started, and its exit awaited (nothing when it is gone already). */
export async function stopChild(c: ChildProcess | undefined): Promise<void> {
  if (!c || c.exitCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGTERM');
  await exited;
}
