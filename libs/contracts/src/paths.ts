import { dirname, join } from 'node:path';

/** libs/contracts, found from this file so it works from any working directory. */
export const CONTRACTS_ROOT = join(__dirname, '..');
export const SOLIDITY_DIR = join(CONTRACTS_ROOT, 'solidity');
export const GENERATED_DIR = join(CONTRACTS_ROOT, 'generated');

/** Root folder of an installed npm package (resolved like `require` would). */
export function packageRoot(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}
