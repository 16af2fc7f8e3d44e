/**
 * `--remote`: the hosted-provider emulator (libs/testing/src/rpc-emulator.ts) in a child process in
 * front of the bench anvil, with the plan of options.ts; every contender reads through it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { RpcEmulatorOptions, RpcEmulatorStats } from '@tokensvc/testing';
import { REPO_ROOT } from './chain/paths';
import type { RemotePlan } from './options';

export interface RemoteProxy {
  url: string;
  /** the emulator's process */
  pid: number;
  stats(): Promise<RpcEmulatorStats>;
  stop(): Promise<void>;
}

/** What the emulator counted between two snapshots. */
export function statsDelta(after: RpcEmulatorStats, before: RpcEmulatorStats): RpcEmulatorStats {
  const d = { ...after };
  for (const k of Object.keys(d) as Array<keyof RpcEmulatorStats>) d[k] = after[k] - before[k];
  return d;
}

/** One line: requests, calls, and what the emulator refused (only counters above 0). */
export function formatStats(s: RpcEmulatorStats, seconds?: number): string {
  const parts = [`${s.requests} HTTP requests${seconds ? ` (${(s.requests / seconds).toFixed(0)}/s)` : ''}`, `${s.calls} calls`];
  const refused: Array<[keyof RpcEmulatorStats, string]> = [
    ['throttled', '429s'],
    ['rangeRefused', 'over the block range'],
    ['resultsRefused', 'over the result cap'],
    ['batchRefused', 'batches refused'],
    ['failed', 'failed (502/dropped)'],
  ];
  for (const [k, label] of refused) if (s[k] > 0) parts.push(`${s[k]} ${label}`);
  return parts.join(', ');
}

export function emulatorOptions(upstream: string, plan: RemotePlan, port: number): RpcEmulatorOptions {
  return {
    upstream,
    port,
    roundTripMs: plan.roundTripMs,
    requestsPerSecond: plan.requestsPerSecond,
    burst: plan.burst,
    maxBlockRange: plan.maxBlockRange,
    maxResults: plan.maxResults,
    maxBatch: plan.maxBatch,
    failureShare: plan.failureShare,
    seed: 1,
  };
}

export async function startRemoteProxy(upstream: string, plan: RemotePlan, port: number): Promise<RemoteProxy> {
  const child: ChildProcess = fork(join(__dirname, 'remote-emulator.ts'), [], {
    cwd: REPO_ROOT,
    execArgv: ['-r', join(REPO_ROOT, 'tools', 'register.js')],
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      RPC_EMULATOR_OPTIONS: JSON.stringify(emulatorOptions(upstream, plan, port)),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.on('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the RPC emulator exited with code ${code}`)));
    const onMessage = (m: { url?: string }): void => {
      if (m.url) {
        child.off('message', onMessage);
        resolve(m.url);
      }
    };
    child.on('message', onMessage);
  });
  return {
    url,
    pid: child.pid ?? -1,
    stats: () =>
      new Promise<RpcEmulatorStats>((resolve) => {
        const onMessage = (m: { stats?: RpcEmulatorStats }): void => {
          if (m.stats) {
            child.off('message', onMessage);
            resolve(m.stats);
          }
        };
        child.on('message', onMessage);
        child.send('stats');
      }),
    stop: async () => {
      process.off('exit', killOnExit);
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
