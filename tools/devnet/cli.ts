/**
 * npm run devnet -- up [--fresh] [--networks ethereum,base] [--port 8545]
 * npm run devnet -- up --profile mainnet-shaped [--fresh] [--port 9645]   (real chain ids and addresses; docs/devnet-mainnet-shaped.md)
 * npm run devnet -- reset [--keep-data]
 * `up` keeps the anvils running until Ctrl-C; `reset` deletes the saved state, the chains `npm
 * start` kept, and the data indexed from them (DATABASE_URL; `--keep-data` leaves it).
 * A tool over two libraries (the devnet and persistence), so neither imports the other.
 */
import { isNetwork, type Network } from '@tokensvc/domain';
import { DEFAULT_BASE_PORT, DEFAULT_STATE_DIR, MAINNET_SHAPED, relayerKeyEnv, resetDevnet, startDevnet } from '@tokensvc/devnet';
import { commonStartOptions, option, serveUntilStopped } from './cli-common';
import { upMainnetShaped } from './mainnet-shaped';
import { DEFAULT_DATABASE_URL, devnetRunning, resetIndexedData } from './reset-data';

async function up(args: string[]): Promise<void> {
  const profile = option(args, '--profile');
  if (profile === MAINNET_SHAPED) return upMainnetShaped(args);
  if (profile !== undefined && profile !== 'default') throw new Error(`unknown profile ${profile} (default, ${MAINNET_SHAPED})`);
  const networksArg = option(args, '--networks');
  const networks = networksArg?.split(',').map((n) => {
    if (!isNetwork(n)) throw new Error(`unknown network ${n}`);
    return n as Network;
  });
  const port = option(args, '--port');
  const started = Date.now();
  const handle = await startDevnet({
    networks,
    basePort: port ? Number(port) : undefined,
    ...commonStartOptions(args),
  });
  process.stdout.write(`\ndevnet ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  for (const c of handle.chains) process.stdout.write(`  ${c.network.padEnd(10)} chain ${String(c.chainId).padEnd(6)} ${c.rpcUrl}\n`);
  process.stdout.write(`  manifest: ${handle.manifestPath}\n`);
  // the quote reads its gas wallet from its environment only: these (well-known devnet keys) for ./.env with docker compose
  process.stdout.write(
    `  quote gas wallets: ${Object.entries(relayerKeyEnv(handle.manifestPath))
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}\n`,
  );
  serveUntilStopped(handle);
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  switch (command) {
    case 'up':
      await up(args);
      return;
    case 'reset': {
      const stateDir = option(args, '--state-dir') ?? DEFAULT_STATE_DIR;
      const basePort = Number(option(args, '--port') ?? process.env['DEVNET_BASE_PORT'] ?? DEFAULT_BASE_PORT);
      if (await devnetRunning(basePort)) throw new Error(`a devnet answers on port ${basePort}: stop npm start (or devnet up) first`);
      resetDevnet(stateDir);
      process.stdout.write('devnet state deleted (the saved build and the chains npm start kept); the next start rebuilds it\n');
      if (args.includes('--keep-data')) process.stdout.write('indexed data kept (--keep-data): it describes the deleted chains\n');
      else process.stdout.write(`${await resetIndexedData(process.env['DATABASE_URL'] ?? DEFAULT_DATABASE_URL, stateDir)}\n`);
      return;
    }
    default:
      process.stderr.write(
        'usage: npm run devnet -- up [--fresh] [--networks ethereum,arbitrum,base] [--port 8545] [--state-dir DIR]\n       npm run devnet -- up --profile mainnet-shaped [--fresh] [--port 9645] [--state-dir DIR]\n       npm run devnet -- reset [--keep-data] [--state-dir DIR] [--port 8545]\n',
      );
      process.exit(command ? 1 : 0);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
