import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { JsonRpcClient } from '@tokensvc/chain';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';

export interface PrivateAnvil {
  rpcUrl: string;
  client: JsonRpcClient;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A test's own anvil started from the devnet's saved state. Unlike the shared devnet it keeps the
 * states of the last `keepStates` blocks in memory (`--prune-history <n>`), which anvil_reorg needs.
 */
export async function startPrivateAnvil(o: {
  network: Network;
  port: number;
  stateFile: string;
  keepStates?: number;
}): Promise<PrivateAnvil> {
  const bin = join(
    dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}/package.json`)),
    'bin',
    'anvil',
  );
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(o.port),
    '--chain-id',
    String(NETWORK_INFO[o.network].chainId),
    '--gas-limit',
    '1000000000',
  ];
  args.push('--prune-history', String(o.keepStates ?? 256), '--load-state', o.stateFile);
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const rpcUrl = `http://127.0.0.1:${o.port}`;
  const client = new JsonRpcClient(rpcUrl, { retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited: ${stderr}`);
    try {
      await client.call('eth_chainId');
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`anvil did not start: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    rpcUrl,
    client: new JsonRpcClient(rpcUrl),
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
