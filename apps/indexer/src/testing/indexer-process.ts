import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');

export interface IndexerProcess {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

/** The indexer app as a child process (main.ts through the SWC register), with the given env. */
export function spawnIndexer(env: Record<string, string>): IndexerProcess {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'apps', 'indexer', 'src', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream?.on('data', (c: Buffer) => {
      buf += c.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        lines.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
  }
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, lines, exited };
}

/** SIGKILL by pid (only this test's own child) and wait for the exit. */
export async function killHard(p: IndexerProcess): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGKILL');
  await p.exited;
}

/** SIGTERM (graceful shutdown), SIGKILL after `graceMs`. */
export async function stopGracefully(p: IndexerProcess, graceMs = 10_000): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const t = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  await p.exited;
  clearTimeout(t);
}
