/** Starts and stops anvil processes (the binary itself: through npx, killing npx orphans anvil). */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { RpcClient } from './chain/rpc';

export interface AnvilOptions {
  host: string;
  port: number;
  chainId: number;
  /** anvil JSON state file to start from (chain id is not in it, hence chainId above) */
  loadState?: string;
  /** genesis timestamp (cold builds start in the past) */
  timestamp?: number;
  /** mine only on evm_mine: the seeder packs many transactions per block */
  noMining?: boolean;
  /** interval mining in seconds instead of automine */
  blockTime?: number;
  /** past block states kept in memory for eth_call with a block tag (default none: the latest only) */
  historyStates?: number;
  extraArgs?: readonly string[];
  readyTimeoutMs?: number;
}

export interface AnvilProcess {
  readonly pid: number;
  readonly rpcUrl: string;
  readonly port: number;
  readonly chainId: number;
  stop(timeoutMs?: number): Promise<void>;
}

/** Gas limit of devnet blocks: seeding packs hundreds of transactions with generous gas limits. */
export const DEVNET_BLOCK_GAS_LIMIT = 1_000_000_000n;

export function anvilBinary(): string {
  const fromEnv = process.env['ANVIL_BIN'];
  if (fromEnv) return fromEnv;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let bin: string;
  try {
    bin = join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', 'anvil');
  } catch {
    throw new Error(`anvil binary package ${pkg} is not installed (npm install), or set ANVIL_BIN`);
  }
  if (!existsSync(bin)) throw new Error(`anvil binary missing at ${bin}`);
  return bin;
}

export function anvilArgs(o: AnvilOptions): string[] {
  const args = ['--host', o.host, '--port', String(o.port), '--chain-id', String(o.chainId)];
  args.push('--gas-limit', DEVNET_BLOCK_GAS_LIMIT.toString());
  // Without pruning anvil snapshots every block's state to ~/.foundry (GBs over thousands of blocks).
  args.push('--prune-history', ...(o.historyStates ? [String(o.historyStates)] : []));
  if (o.loadState) args.push('--load-state', o.loadState);
  if (o.timestamp !== undefined) args.push('--timestamp', String(o.timestamp));
  if (o.noMining) args.push('--no-mining', '--order', 'fifo');
  if (o.blockTime !== undefined) args.push('--block-time', String(o.blockTime));
  args.push(...(o.extraArgs ?? []));
  return args;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * A crashed or interrupted parent must not leave its children running (anvils holding the ports,
 * a bench's apps): `child` is SIGKILLed by PID when this process exits, unless it exited first.
 */
export function killOnExit(child: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
}

function portAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startAnvil(o: AnvilOptions): Promise<AnvilProcess> {
  // Waiting for "RPC answers" would otherwise happily accept some other process on the port.
  if (await portAnswers(o.host, o.port)) throw new Error(`port ${o.host}:${o.port} is already in use (another devnet running?)`);
  const child = spawn(anvilBinary(), anvilArgs(o), { stdio: ['ignore', 'ignore', 'pipe'] });
  killOnExit(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });
  const rpcUrl = `http://${o.host}:${o.port}`;
  const rpc = new RpcClient(rpcUrl);
  const deadline = Date.now() + (o.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) throw new Error(`anvil on port ${o.port} exited (${exited.code ?? exited.signal}) before it was ready: ${stderr.trim()}`);
    try {
      const chainId = Number(await rpc.call<string>('eth_chainId'));
      if (chainId !== o.chainId) throw new Error(`anvil on port ${o.port} reports chain id ${chainId}, expected ${o.chainId}`);
      break;
    } catch (err) {
      if (err instanceof Error && err.message.includes('reports chain id')) throw err;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`anvil on port ${o.port} did not answer within ${o.readyTimeoutMs ?? 60_000} ms: ${stderr.trim()}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error('anvil started without a pid');
  return {
    pid,
    rpcUrl,
    port: o.port,
    chainId: o.chainId,
    async stop(timeoutMs = 5_000): Promise<void> {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exitPromise;
      clearTimeout(timer);
    },
  };
}
