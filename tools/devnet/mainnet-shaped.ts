/**
 * `npm run devnet -- up --profile mainnet-shaped`: the profile whose chains carry the real chain
 * ids and the shipped registry's addresses (libs/devnet/src/mainnet-shaped), on its own ports and
 * state folder. Prints what the apps need to run on it in the production configuration.
 */
import { getAddress } from 'ethers';
import { loadRegistry } from '@tokensvc/chain';
import { MAINNET_SHAPED_BASE_PORT, startMainnetShaped } from '@tokensvc/devnet';
import { commonStartOptions, option, serveUntilStopped } from './cli-common';

export async function upMainnetShaped(args: string[]): Promise<void> {
  const port = option(args, '--port');
  const started = Date.now();
  const handle = await startMainnetShaped({
    registry: loadRegistry('shipped').networks,
    basePort: port ? Number(port) : MAINNET_SHAPED_BASE_PORT,
    ...commonStartOptions(args),
  });
  process.stdout.write(`\nmainnet-shaped devnet ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(
    '  run the platform on it in the production configuration (no DEVNET_MANIFEST):\n    REGISTRY=shipped CROSS_CHAIN_BRIDGE=across',
  );
  for (const net of handle.manifest.networks) {
    const up = net.network.toUpperCase();
    process.stdout.write(
      ` RPC_URL_${up}=${handle.rpcUrls[net.network]} ROUTER_ADDRESS_${up}=${getAddress(net.contracts.router)} START_BLOCK_${up}=0`,
    );
  }
  const firstPort = new URL(handle.rpcUrls[handle.manifest.networks[0]!.network]!).port;
  process.stdout.write(
    `\n  cross-chain orders on Across are filled by the devnet's relayer, started apart:\n    node -r ./tools/register.js libs/devnet/src/across/cli.ts --manifest ${handle.manifestPath} --port ${firstPort} --fund`,
  );
  process.stdout.write(`\n  placements: ${handle.manifestPath}\n`);
  serveUntilStopped(handle);
}
