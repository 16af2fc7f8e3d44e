/**
 * The bench chain described the way the indexer reads a devnet manifest (DEVNET_MANIFEST): the
 * listed tokens, where history starts, and the platforms (a Uniswap V2 factory with its pairs, an
 * ERC-4626 vault list). Only fields the indexer reads; no accounts or keys.
 */
import { writeFileSync } from 'node:fs';
import { MULTICALL3_ADDRESS } from '@tokensvc/domain';
import type { ChainMeta } from './chain/generate';

export function benchManifest(meta: ChainMeta): unknown {
  const { world } = meta;
  const weth = world.tokens.find((t) => t.symbol === 'WETH')?.address;
  return {
    formatVersion: 1,
    codeVersion: `bench-${meta.key}`,
    networks: [
      {
        network: 'ethereum',
        chainId: world.chainId,
        deployer: world.deployer,
        weth,
        multicall3: MULTICALL3_ADDRESS,
        tokens: world.tokens,
        history: {
          deployBlock: world.deployBlock,
          deployTimestamp: world.deployTimestamp,
          lastBlock: meta.head,
          lastTimestamp: meta.headTimestamp,
        },
        platforms: [
          {
            slug: 'bench-v2',
            name: 'Bench V2',
            family: 'uniswap-v2',
            addresses: { factory: world.factory, router: world.router },
            pools: world.pairs.map((p) => ({ ...p, fee: 3000 })),
            vaults: [],
            markets: [],
          },
          {
            slug: 'bench-vaults',
            name: 'Bench Vaults',
            family: 'erc4626',
            addresses: { vaults: world.vaults.map((v) => v.address) },
            pools: [],
            vaults: world.vaults,
            markets: [],
          },
        ],
      },
    ],
  };
}

export function writeBenchManifest(meta: ChainMeta, file: string): string {
  writeFileSync(file, JSON.stringify(benchManifest(meta), null, 1));
  return file;
}
