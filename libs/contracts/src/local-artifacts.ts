import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Artifact } from './artifact';
import { compileContracts } from './build/compile';
import { GENERATED_DIR } from './paths';

/** Contracts compiled from libs/contracts/solidity. */
export type LocalContractName = 'TestERC20' | 'TestVault' | 'Multicall3' | 'MockPriceFeed' | 'Router' | 'Executor' | 'ReentrantTarget' | 'ApprovalThief' | 'BridgeEscrow' | 'BridgeSettler' | 'FeeOnTransferToken';

const cache = new Map<string, Artifact>();
let checked = false;

/** Loads a compiled artifact, compiling first when the sources changed since the last build. */
export function loadArtifact(name: LocalContractName): Artifact {
  const hit = cache.get(name);
  if (hit) return hit;
  if (!checked) {
    const result = compileContracts();
    checked = true;
    if (!result.contracts.includes(name)) throw new Error(`no contract ${name} in libs/contracts/solidity (have ${result.contracts.join(', ')})`);
  }
  const artifact = JSON.parse(readFileSync(join(GENERATED_DIR, `${name}.json`), 'utf8')) as Artifact;
  cache.set(name, artifact);
  return artifact;
}
