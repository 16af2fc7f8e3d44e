/**
 * Child-process entry for buildNetwork. The seeder's JavaScript (ABI encoding, JSON) is the
 * bottleneck of a cold start, so each network builds in its own process and the networks use
 * every CPU core instead of sharing one event loop.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildOptions, buildNetwork } from './build';
import type { NetworkManifest } from './manifest';

type WorkerMessage = { type: 'log'; line: string } | { type: 'done'; manifest: NetworkManifest } | { type: 'error'; message: string };

const REGISTER = join(__dirname, '..', '..', '..', 'tools', 'register.js');

/** Builds in a child process when the TypeScript loader is available, else in this process. */
export function buildNetworkIsolated(opts: BuildOptions): Promise<NetworkManifest> {
  if (!existsSync(REGISTER)) return buildNetwork(opts);
  const { log, ...serialisable } = opts;
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [JSON.stringify(serialisable)], {
      execArgv: ['-r', REGISTER],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    child.on('message', (msg: WorkerMessage) => {
      if (msg.type === 'log') log(msg.line);
      else if (msg.type === 'done') {
        settled = true;
        resolve(msg.manifest);
      } else {
        settled = true;
        reject(new Error(`${opts.network} build failed: ${msg.message}`));
      }
    });
    child.on('error', (err) => {
      if (!settled) reject(err);
      settled = true;
    });
    child.on('exit', (code, signal) => {
      if (!settled) reject(new Error(`${opts.network} build process exited (${code ?? signal}) without a result`));
      settled = true;
    });
  });
}

function runAsWorker(): void {
  const send = (msg: WorkerMessage): void => {
    process.send?.(msg);
  };
  // Parent gone (Ctrl-C, crash): exit, which also stops this worker's anvil (see anvil.ts).
  process.on('disconnect', () => process.exit(1));
  const opts = JSON.parse(process.argv[2] ?? '{}') as Omit<BuildOptions, 'log'>;
  buildNetwork({ ...opts, log: (line) => send({ type: 'log', line }) }).then(
    (manifest) => {
      send({ type: 'done', manifest });
      process.disconnect?.();
    },
    (err: unknown) => {
      send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      process.disconnect?.();
      process.exitCode = 1;
    },
  );
}

if (require.main === module && process.send) runAsWorker();
