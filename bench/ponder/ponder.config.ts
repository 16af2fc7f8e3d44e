/** Ponder indexing the bench chain: ERC-20 Transfers, Uniswap V2 pair events, ERC-4626 flows. */
import { readFileSync } from 'node:fs';
import { createConfig } from 'ponder';
import { http } from 'viem';
import { Erc20Abi, PairAbi, VaultAbi } from './abis';
import type { PonderBenchSpec } from './spec';

const specFile = process.env['PONDER_BENCH_SPEC'];
if (!specFile) throw new Error('PONDER_BENCH_SPEC must name the bench spec JSON (written by bench/indexer)');
const spec = JSON.parse(readFileSync(specFile, 'utf8')) as PonderBenchSpec;

export default createConfig({
  database: { kind: 'postgres', connectionString: process.env['DATABASE_URL'] },
  networks: {
    // Loopback anvil: no reason to throttle below what it answers. viem >= 2.4x caps response
    // bodies at 10 MB, which Ponder 1.0 (built before the cap) does not split ranges for: a block of
    // this chain alone is ~1.3 MB of logs, so the cap would fail every eth_getLogs over ~8 blocks.
    // Through the hosted-provider emulator (`--remote`) the budget is the plan's.
    bench: {
      chainId: spec.chainId,
      transport: http(spec.rpcUrl, { maxResponseBodySize: false }),
      maxRequestsPerSecond: spec.maxRequestsPerSecond ?? 1000,
      pollingInterval: 250,
    },
  },
  contracts: {
    // pairs (LP tokens) and vaults (shares) are ERC-20s too
    Erc20: { abi: Erc20Abi, network: 'bench', address: [...spec.tokens, ...spec.pairs, ...spec.vaults], startBlock: spec.startBlock },
    Pair: { abi: PairAbi, network: 'bench', address: spec.pairs, startBlock: spec.startBlock },
    Vault: { abi: VaultAbi, network: 'bench', address: spec.vaults, startBlock: spec.startBlock },
  },
});
