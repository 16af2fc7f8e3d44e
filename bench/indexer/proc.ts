/** Child processes of the bench: started with a minimal env, their output kept for error reports. */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { killOnExit } from '@tokensvc/devnet';
import { INFRA } from '@tokensvc/testing';
import { REPO_ROOT } from './chain/paths';

export interface BenchProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** the last lines the process printed (stdout and stderr) */
  tail(): string;
}

let signalsHooked = false;

/** An interrupted bench must not leave its children running: killOnExit kills them on 'exit', which these signals skip without a handler (anvil's hook included). */
function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
}

export function startProcess(
  name: string,
  args: string[],
  env: Record<string, string>,
  onLine: (line: string) => void = () => undefined,
): BenchProcess {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  hookSignals();
  killOnExit(child);
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream?.on('data', (chunk: Buffer) => {
      buf += chunk.toString();
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        lines.push(line);
        if (lines.length > 40) lines.shift();
        onLine(line);
      }
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, exited, tail: () => lines.join('\n') };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every `everyMs` until it returns a value, the process exits, or time runs out. */
export async function waitFor<T>(
  p: BenchProcess | undefined,
  timeoutMs: number,
  everyMs: number,
  probe: () => Promise<T | undefined>,
): Promise<{ value?: T; exited?: number | null; timedOut?: boolean }> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void p?.exited.then((c) => (exitCode = c));
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return { value };
    if (exitCode !== undefined) return { exited: exitCode };
    if (Date.now() > deadline) return { timedOut: true };
    await sleep(everyMs);
  }
}

/**
 * Writes out what Postgres still holds of earlier runs (CHECKPOINT) before a contender starts, so
 * no contender pays for the previous one's writes (Ponder's 1M rows, a run of ours before it).
 */
export async function settlePostgres(): Promise<void> {
  const db = new Client({ connectionString: INFRA.postgres });
  await db.connect();
  try {
    await db.query('CHECKPOINT');
  } finally {
    await db.end();
  }
}
