import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';

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
