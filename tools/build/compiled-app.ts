/**
 * Runs what the image runs, without a container engine: a build target compiled into a folder
 * (tools/build/build-app.ts) whose node_modules is the workspace's (the image installs the same
 * versions, production only), started with `node main.js`. Used by the build test and by
 * `npm run bench -- image` (tools/build/measure.ts) to time starts and size what an image ships.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildApp, type BuildResult } from './build-app';

const ROOT = resolve(__dirname, '..', '..');

/** Compiles `target` into `outDir` and links the workspace's node_modules beside it. */
export function buildRunnable(target: string, outDir: string): BuildResult {
  const result = buildApp(target, outDir);
  symlinkSync(join(ROOT, 'node_modules'), join(outDir, 'node_modules'), 'dir');
  return result;
}

export interface Started {
  /** milliseconds from spawn to the first answer of `url` that `ok` accepts */
  ms: number;
  stop(): Promise<void>;
  output(): string;
}

/** Starts `node <args>` in `cwd` and waits until `url` answers as `ok` wants; throws with the output if it does not in time. */
export async function startAndWait(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  url: string,
  timeoutMs: number,
  ok: (status: number) => boolean = (s) => s === 200,
): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 8000);
      await exited;
      clearTimeout(kill);
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (ok(res.status)) return { ms: performance.now() - t0, stop, output: () => out };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  await stop();
  throw new Error(
    `node ${args.join(' ')} in ${cwd}: ${url} did not answer in ${timeoutMs} ms (exit ${String(child.exitCode)})\n${out.slice(-3000)}`,
  );
}

/** Runs `node <args>` to completion; resolves with its exit code and output. */
export function runToEnd(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.once('error', (e) => done({ code: null, output: `${out}${e.message}` }));
    child.once('exit', (code) => done({ code, output: out }));
  });
}

/** Bytes on disk under `dir` (files only; symlinks not followed). */
export function diskBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isSymbolicLink()) continue;
    total += e.isDirectory() ? diskBytes(p) : lstatSync(p).size;
  }
  return total;
}

interface LockEntry {
  version?: string;
  dev?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/**
 * The production node_modules an image installs for these packages: their closure in the root
 * lock file (npm's resolution: the nearest node_modules up the tree), as lock paths, and the
 * bytes those folders take in the workspace's node_modules (nested node_modules not counted twice).
 */
export function productionClosure(packages: readonly string[]): { paths: string[]; bytes: number } {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const found = new Set<string>();
  const resolveFrom = (from: string, name: string): string | undefined => {
    let base = from;
    for (;;) {
      const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (base === '') return undefined;
      const i = base.lastIndexOf('/node_modules/');
      base = i < 0 ? '' : base.slice(0, i);
    }
  };
  const visit = (path: string): void => {
    if (found.has(path)) return;
    found.add(path);
    const entry = lock.packages[path] as LockEntry;
    for (const dep of [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {})]) {
      const p = resolveFrom(path, dep);
      if (p !== undefined) visit(p); // an optional dependency for another platform is absent from the lock
    }
  };
  for (const name of packages) {
    const p = resolveFrom('', name);
    if (p === undefined) throw new Error(`${name} is not in package-lock.json`);
    visit(p);
  }
  let bytes = 0;
  for (const p of found) {
    const dir = join(ROOT, p);
    if (!existsSync(dir)) continue; // optional, not installed on this platform
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.isSymbolicLink()) continue;
      const q = join(dir, e.name);
      bytes += e.isDirectory() ? diskBytes(q) : lstatSync(q).size;
    }
  }
  return { paths: [...found].sort(), bytes };
}
