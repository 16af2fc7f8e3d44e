import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Artifact } from './artifact';
import { compileContracts } from './build/compile';
import { GENERATED_DIR, SOLIDITY_DIR } from './paths';

/** Contracts compiled from libs/contracts/solidity. */
export type LocalContractName =
  | 'TestERC20'
  | 'TestVault'
  | 'Multicall3'
  | 'MockPriceFeed'
  | 'Router'
  | 'Executor'
  | 'ReentrantTarget'
  | 'ApprovalThief'
  | 'TestDepositSink';

const cache = new Map<string, Artifact>();
let checked = false;

/** Loads a compiled artifact, compiling first when the sources changed since the last build. */
export function loadArtifact(name: LocalContractName): Artifact {
  const hit = cache.get(name);
  if (hit) return hit;
  // In a checkout the sources are there and the artifacts are rebuilt when they changed; an image
  // ships the compiled artifacts only (tools/build/build-app.ts), with neither sources nor solc.
  if (!checked && existsSync(SOLIDITY_DIR)) {
    const result = compileContracts();
    checked = true;
    if (!result.contracts.includes(name))
      throw new Error(`no contract ${name} in libs/contracts/solidity (have ${result.contracts.join(', ')})`);
  }
  const file = join(GENERATED_DIR, `${name}.json`);
  if (!existsSync(file)) throw new Error(`${file} is missing: the build must ship libs/contracts/generated (npm run contracts:build)`);
  const artifact = JSON.parse(readFileSync(file, 'utf8')) as Artifact;
  cache.set(name, artifact);
  return artifact;
}
