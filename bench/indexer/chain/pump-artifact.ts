/** Compiles bench/indexer/solidity/EventPump.sol with solc-js, cached under .bench/ by source hash. */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Solc from 'solc';
import type { Artifact } from '@tokensvc/contracts';
import { BENCH_DIR, SOLIDITY_DIR } from './paths';

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { EventPump: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
} as const;

interface SolcOutput {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts?: Record<
    string,
    Record<string, { abi: Artifact['abi']; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
}

export function loadPumpArtifact(): Artifact {
  const source = readFileSync(join(SOLIDITY_DIR, 'EventPump.sol'), 'utf8');
  const hash = createHash('sha256').update(JSON.stringify(SETTINGS)).update(source).digest('hex').slice(0, 16);
  const file = join(BENCH_DIR, `EventPump.${hash}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Artifact;
  const solc = require('solc') as typeof Solc;
  const input = { language: 'Solidity', sources: { 'EventPump.sol': { content: source } }, settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const out = output.contracts?.['EventPump.sol']?.['EventPump'];
  if (!out) throw new Error('solc produced no EventPump');
  const artifact: Artifact = {
    contractName: 'EventPump',
    abi: out.abi,
    bytecode: `0x${out.evm.bytecode.object}`,
    deployedBytecode: `0x${out.evm.deployedBytecode.object}`,
    linkReferences: {},
  };
  mkdirSync(BENCH_DIR, { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(artifact));
  renameSync(`${file}.tmp`, file);
  return artifact;
}
