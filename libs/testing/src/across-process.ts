/**
 * The devnet's Across relayer and data worker (libs/devnet/src/across/cli.ts) as a process next to
 * a platform's devnet, the way `npm start` runs it: it fills the deposits of cross-chain orders on
 * their destination SpokePool and, with a bundle period, refunds expired deposits through Across's
 * own refund leaves. Tests restart it in another mode to drive failure modes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { eachLine, type PlatformEnv } from './processes';

const ROOT = join(__dirname, '..', '..', '..');

/** The relayer's "relayer started" log line. */
export interface AcrossRelayerStarted {
  address: string;
  mode: string;
  networks: string[];
  bundleEverySeconds?: number;
}

export interface AcrossRelayerProcess {
  child: ChildProcess;
  /** resolves with the exit code once the process has exited */
  exited: Promise<number | null>;
  /** resolves on the "relayer started" line; rejects when the process exits first or stays silent for `startTimeoutMs` */
  started: Promise<AcrossRelayerStarted>;
}

export interface AcrossRelayerProcessOptions {
  /** normal (default), offline, slow, partial-inventory */
  mode?: string;
  /** run the data worker every so many seconds (refunds of expired deposits, relayer repayments) */
  bundleEverySeconds?: number;
  /** top the relayer's inventory up first (a funded relayer is left alone: no transaction) */
  fund?: boolean;
  startTimeoutMs?: number;
}

/** The command line of the relayer process for a platform's devnet (manifest and RPC URLs). */
export function acrossRelayerArgs(env: Pick<PlatformEnv, 'manifestPath' | 'rpcUrls'>, opts: AcrossRelayerProcessOptions = {}): string[] {
  if (!env.manifestPath) throw new Error('the Across relayer runs next to a devnet: the platform has no devnet manifest');
  const rpc = Object.entries(env.rpcUrls)
    .map(([network, url]) => `${network}=${url}`)
    .join(',');
  return [
    '-r',
    join(ROOT, 'tools', 'register.js'),
    join(ROOT, 'libs', 'devnet', 'src', 'across', 'cli.ts'),
    '--manifest',
    env.manifestPath,
    '--rpc',
    rpc,
    '--mode',
    opts.mode ?? 'normal',
    ...(opts.fund === false ? [] : ['--fund']),
    ...(opts.bundleEverySeconds === undefined ? [] : ['--bundle-every', String(opts.bundleEverySeconds)]),
  ];
}

/** Starts the relayer (and data worker) from its TypeScript sources; each output line goes to `onLine`. */
export function startAcrossRelayerProcess(
  env: Pick<PlatformEnv, 'manifestPath' | 'rpcUrls'>,
  opts: AcrossRelayerProcessOptions,
  onLine: (line: string) => void,
): AcrossRelayerProcess {
  const child = spawn(process.execPath, acrossRelayerArgs(env, opts), {
    cwd: ROOT,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  let onStarted: (s: AcrossRelayerStarted) => void = () => undefined;
  const started = new Promise<AcrossRelayerStarted>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the Across relayer did not report "relayer started" within ${timeoutMs} ms`)),
      timeoutMs,
    );
    onStarted = (s) => {
      clearTimeout(timer);
      resolve(s);
    };
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the Across relayer exited with code ${code} before starting`));
    });
  });
  started.catch(() => undefined); // the caller awaits it; an unobserved rejection must not crash the runner
  eachLine(child, (line) => {
    onLine(line);
    if (line.includes('"msg":"relayer started"')) onStarted(JSON.parse(line) as AcrossRelayerStarted);
  });
  return { child, exited, started };
}
