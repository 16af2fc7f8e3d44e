/**
 * A throw-away anvil for contract tests (not the shared devnet: these tests deploy and mutate
 * freely). The devnet library depends on this one, so its anvil helpers cannot be used here.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

export interface PrivateAnvil {
  rpcUrl: string;
  pid: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function binary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  return (
    process.env['ANVIL_BIN'] ?? join(dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)), 'bin', 'anvil')
  );
}

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return res.ok;
  } catch {
    return false;
  }
}

export async function startPrivateAnvil(chainId = 31337): Promise<PrivateAnvil> {
  const port = await freePort();
  const child: ChildProcess = spawn(binary(), ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId)], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (!(await answers(rpcUrl))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`private anvil on port ${port} did not start`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  if (child.pid === undefined) throw new Error('anvil started without a pid');
  return {
    rpcUrl,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
