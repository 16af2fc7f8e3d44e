/**
 * Compiles libs/contracts/solidity with solc-js (standard JSON) into libs/contracts/generated/.
 * Rebuilds only when a hash over the sources, the compiler and the settings changes.
 * CLI: `npm run contracts:build [-- --force]`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Solc from 'solc';
import type { Artifact } from '../artifact';
import { GENERATED_DIR, SOLIDITY_DIR, packageRoot } from '../paths';

const BUILD_INFO = 'build-info.json';

/** solc-js takes ~0.5 s to load, so it is required only when something must be compiled. */
function loadSolc(): typeof Solc {
  return require('solc') as typeof Solc;
}

function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(join(packageRoot(name), 'package.json'), 'utf8')) as { version: string }).version;
}

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  // anvil's default hardfork is newer than cancun, so PUSH0/MCOPY are fine.
  evmVersion: 'cancun',
  // outputSelection is not part of the contracts' metadata, so it does not change the bytecode.
  // The AST names the immutables (immutableReferences are keyed by AST id), so a deployment's
  // runtime code can be predicted exactly (router/deterministic.ts).
  outputSelection: {
    '*': {
      '': ['ast'],
      '*': [
        'abi',
        'evm.bytecode.object',
        'evm.bytecode.linkReferences',
        'evm.deployedBytecode.object',
        'evm.deployedBytecode.immutableReferences',
      ],
    },
  },
} as const;

interface BuildInfo {
  hash: string;
  solcVersion: string;
  contracts: string[];
}

interface AstNode {
  nodeType?: string;
  id?: number;
  name?: string;
  [key: string]: unknown;
}

interface SolcOutput {
  errors?: Array<{ severity: 'error' | 'warning' | 'info'; formattedMessage: string }>;
  sources?: Record<string, { ast?: AstNode }>;
  contracts?: Record<
    string,
    Record<
      string,
      {
        abi: Artifact['abi'];
        evm: {
          bytecode: { object: string; linkReferences: Artifact['linkReferences'] };
          deployedBytecode: { object: string; immutableReferences?: Record<string, Array<{ start: number; length: number }>> };
        };
      }
    >
  >;
}

/** `Contract.variable` of every state variable declared in the sources, by AST id. */
function stateVariableNames(sources: SolcOutput['sources']): Map<string, string> {
  const names = new Map<string, string>();
  const visit = (node: unknown, contract: string | undefined): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n, contract);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const n = node as AstNode;
    const inside = n.nodeType === 'ContractDefinition' ? n.name : contract;
    if (n.nodeType === 'VariableDeclaration' && contract !== undefined && n.id !== undefined && n.name)
      names.set(String(n.id), `${contract}.${n.name}`);
    for (const [key, value] of Object.entries(n)) if (key !== 'nodeType' && typeof value === 'object') visit(value, inside);
  };
  for (const s of Object.values(sources ?? {})) visit(s.ast, undefined);
  return names;
}

/** immutableReferences keyed by `Contract.variable` instead of AST id. */
function namedImmutables(
  refs: Record<string, Array<{ start: number; length: number }>> | undefined,
  names: Map<string, string>,
): Artifact['immutableReferences'] {
  if (!refs || Object.keys(refs).length === 0) return undefined;
  return Object.fromEntries(
    Object.entries(refs).map(([id, at]) => {
      const name = names.get(id);
      if (!name) throw new Error(`solc output: no state variable with AST id ${id}`);
      return [name, at];
    }),
  );
}

export interface CompileResult {
  /** false when the generated artifacts were already up to date */
  compiled: boolean;
  hash: string;
  contracts: string[];
  warnings: string[];
}

/** Sources keyed by their path under solidity/ ('Multicall3.sol', 'router/Router.sol'). */
function readSources(dir = SOLIDITY_DIR, prefix = ''): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) Object.assign(sources, readSources(full, `${prefix}${entry}/`));
    else if (entry.endsWith('.sol')) sources[`${prefix}${entry}`] = readFileSync(full, 'utf8');
  }
  return sources;
}

/** Imported OpenZeppelin code is part of the input, so its version is part of the hash. */
function sourcesHash(sources: Record<string, string>): string {
  const h = createHash('sha256')
    .update(`solc@${packageVersion('solc')} oz@${packageVersion('@openzeppelin/contracts')}`)
    .update(JSON.stringify(SETTINGS));
  for (const [name, text] of Object.entries(sources)) h.update(`\0${name}\0${text}`);
  return h.digest('hex');
}

function readBuildInfo(): BuildInfo | undefined {
  const file = join(GENERATED_DIR, BUILD_INFO);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BuildInfo;
  } catch {
    return undefined;
  }
}

/** Resolves `@scope/pkg/path.sol` imports from node_modules; relative imports arrive already joined. */
function findImport(path: string): { contents?: string; error?: string } {
  try {
    if (path.startsWith('@')) {
      const [scope, pkg, ...rest] = path.split('/');
      return { contents: readFileSync(join(packageRoot(`${scope}/${pkg}`), ...rest), 'utf8') };
    }
    return { contents: readFileSync(join(SOLIDITY_DIR, path), 'utf8') };
  } catch (err) {
    return { error: `cannot import ${path}: ${(err as Error).message}` };
  }
}

/** Writes via a temporary file so a concurrent reader never sees a half-written artifact. */
function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export function isUpToDate(): boolean {
  const info = readBuildInfo();
  return !!info && info.hash === sourcesHash(readSources()) && info.contracts.every((c) => existsSync(join(GENERATED_DIR, `${c}.json`)));
}

export function compileContracts(opts: { force?: boolean } = {}): CompileResult {
  const sources = readSources();
  const hash = sourcesHash(sources);
  const info = readBuildInfo();
  if (!opts.force && info && info.hash === hash && info.contracts.every((c) => existsSync(join(GENERATED_DIR, `${c}.json`)))) {
    return { compiled: false, hash, contracts: info.contracts, warnings: [] };
  }
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: SETTINGS,
  };
  const solc = loadSolc();
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const warnings = (output.errors ?? []).filter((e) => e.severity === 'warning').map((e) => e.formattedMessage);

  mkdirSync(GENERATED_DIR, { recursive: true });
  const names = stateVariableNames(output.sources);
  const contracts: string[] = [];
  // Only contracts defined in our own files become artifacts; imported OpenZeppelin ones do not.
  for (const file of Object.keys(sources)) {
    for (const [name, out] of Object.entries(output.contracts?.[file] ?? {})) {
      if (!out.evm.bytecode.object) continue; // interfaces and abstract contracts
      const artifact: Artifact = {
        contractName: name,
        abi: out.abi,
        bytecode: `0x${out.evm.bytecode.object}`,
        deployedBytecode: `0x${out.evm.deployedBytecode.object}`,
        linkReferences: out.evm.bytecode.linkReferences,
        immutableReferences: namedImmutables(out.evm.deployedBytecode.immutableReferences, names),
      };
      writeAtomic(join(GENERATED_DIR, `${name}.json`), JSON.stringify(artifact, null, 1));
      contracts.push(name);
    }
  }
  const buildInfo: BuildInfo = { hash, solcVersion: solc.version(), contracts: contracts.sort() };
  writeAtomic(join(GENERATED_DIR, BUILD_INFO), JSON.stringify(buildInfo, null, 2));
  return { compiled: true, hash, contracts, warnings };
}

if (require.main === module) {
  const started = Date.now();
  const result = compileContracts({ force: process.argv.includes('--force') });
  for (const w of result.warnings) process.stderr.write(`${w}\n`);
  const what = result.compiled ? `compiled ${result.contracts.join(', ')}` : 'up to date';
  process.stdout.write(`contracts: ${what} (${Date.now() - started} ms) -> ${GENERATED_DIR}\n`);
}
