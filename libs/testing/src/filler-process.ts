/**
 * The devnet bridge's filler (libs/bridge/src/filler/main.ts) as a process, with the platform's
 * RPC URLs, manifest and NATS (the quote service builds its destination swaps), the way `npm start`
 * runs it next to the apps. Tests restart it in another FILLER_MODE to drive failure modes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { rpcVar } from '@tokensvc/config';
import type { Network } from '@tokensvc/domain';
import { eachLine, natsCredentialsEnv, type PlatformEnv } from './processes';

const ROOT = join(__dirname, '..', '..', '..');

/** The filler's "filler started" log line. */
export interface FillerStarted {
  filler: string;
  mode: string;
  networks: string[];
}

export interface FillerProcess {
  child: ChildProcess;
  /** resolves with the exit code once the process has exited */
  exited: Promise<number | null>;
  /** resolves on the "filler started" line; rejects when the filler exits first or stays silent for `startTimeoutMs` */
  started: Promise<FillerStarted>;
}

export interface FillerProcessOptions {
  /** FILLER_MODE: normal (default), offline, revert, no-inventory */
  mode?: string;
  /** LOG_LEVEL of the filler; default the platform's */
  logLevel?: string;
  /** more FILLER_* variables (FILLER_POLL_MS, ...), applied after the platform's extraEnv */
  env?: Record<string, string>;
  startTimeoutMs?: number;
}

export function fillerEnv(env: PlatformEnv, opts: FillerProcessOptions = {}): NodeJS.ProcessEnv {
  const networks = Object.keys(env.rpcUrls) as Network[];
  const out: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    NODE_ENV: 'production',
    NETWORKS: networks.join(','),
    LOG_LEVEL: opts.logLevel ?? env.logLevel ?? 'info',
    FILLER_MODE: opts.mode ?? 'normal',
    NATS_URL: env.natsUrl,
    ...natsCredentialsEnv('filler', env),
  };
  if (env.manifestPath) out['DEVNET_MANIFEST'] = env.manifestPath;
  for (const n of networks) out[rpcVar(n)] = env.rpcUrls[n];
  return { ...out, ...env.extraEnv, ...opts.env };
}

/** Starts the filler from its TypeScript sources; each output line goes to `onLine`. */
export function startFillerProcess(env: PlatformEnv, opts: FillerProcessOptions, onLine: (line: string) => void): FillerProcess {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'libs', 'bridge', 'src', 'filler', 'main.ts')], {
    cwd: ROOT,
    env: fillerEnv(env, opts),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const timeoutMs = opts.startTimeoutMs ?? 30_000;
  let onStarted: (s: FillerStarted) => void = () => undefined;
  const started = new Promise<FillerStarted>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the filler did not report "filler started" within ${timeoutMs} ms`)), timeoutMs);
    onStarted = (s) => {
      clearTimeout(timer);
      resolve(s);
    };
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the filler exited with code ${code} before starting`));
    });
  });
  started.catch(() => undefined); // the caller awaits it; an unobserved rejection must not crash the runner
  eachLine(child, (line) => {
    onLine(line);
    if (line.includes('"msg":"filler started"')) onStarted(JSON.parse(line) as FillerStarted);
  });
  return { child, exited, started };
}
