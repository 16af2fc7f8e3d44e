import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { stopChild, tcpReachableUrl, waitReachable } from './net';

/**
 * A private redis-server with a password (as production runs it) on its own port, nothing saved.
 * The password reaches it through a config read from stdin, not the command line.
 */
export class PrivateRedisServer {
  private child: ChildProcess | undefined;
  constructor(
    readonly port: number,
    readonly password: string = randomBytes(12).toString('hex'),
  ) {}

  /** the server's URL, without the password */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** the URL with the password */
  get authUrl(): string {
    return `redis://:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['-', '--bind', '127.0.0.1', '--port', String(this.port), '--save', '', '--appendonly', 'no'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    this.child.stdin?.end(`requirepass "${this.password.replace(/["\\]/g, '\\$&')}"\n`);
    await waitReachable(() => tcpReachableUrl(this.url), `redis-server did not start on port ${this.port}`);
  }

  async stop(): Promise<void> {
    const c = this.child;
    this.child = undefined;
    await stopChild(c);
  }
}

/** Deletes every key under `prefix:` in the Redis at `url` (a test file's BullMQ queues in the shared Redis). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (found.length > 0) await redis.del(...found);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
