import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..', '..');
/** Generated chains, compiled pump and run files (gitignored). */
export const BENCH_DIR = join(REPO_ROOT, '.bench', 'indexer');
export const SOLIDITY_DIR = join(__dirname, '..', 'solidity');
export const CHAIN_CODE_DIR = __dirname;
