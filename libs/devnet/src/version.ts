/**
 * Version of a saved devnet: a hash over the code that deploys and seeds it, the contract
 * sources/artifacts it uses and the anvil build. Any change rebuilds the state on the next start.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { CONTRACTS_ROOT } from '@tokensvc/contracts';

const DEVNET_SRC = __dirname;
const NOT_BUILD_CODE = /(\.spec\.ts|\.int-spec\.ts|[\\/]cli\.ts)$/;
/** The mainnet-shaped profile (its own folder) builds its own state: its code does not invalidate today's devnet. */
const PROFILE_DIR = join(DEVNET_SRC, 'mainnet-shaped');
/** The Across relayer and data worker run against a built devnet: not build code (deploy/across.ts is). */
const ACROSS_TOOLING_DIR = join(DEVNET_SRC, 'across') + sep;
/** The protocol modules' devnet facets (libs/protocols/src/devnet*.ts, <family>/devnet*.ts) deploy and seed it too. */
const PROTOCOLS_SRC = join(DEVNET_SRC, '..', '..', 'protocols', 'src');
const PROTOCOL_DEVNET_CODE = /(^|[\\/])devnet[^\\/]*\.ts$/;

function files(dir: string, keep: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...files(full, keep));
    else if (keep(full)) out.push(full);
  }
  return out;
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(join(dirname(require.resolve(`${name}/package.json`)), 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'missing';
  }
}

let cached: string | undefined;

export function codeVersion(): string {
  if (cached) return cached;
  const hash = createHash('sha256');
  const sources = [
    ...files(
      DEVNET_SRC,
      (f) => f.endsWith('.ts') && !NOT_BUILD_CODE.test(f) && !f.startsWith(PROFILE_DIR) && !f.startsWith(ACROSS_TOOLING_DIR),
    ).map((f) => ({ root: DEVNET_SRC, f })),
    ...files(PROTOCOLS_SRC, (f) => PROTOCOL_DEVNET_CODE.test(f) && !NOT_BUILD_CODE.test(f)).map((f) => ({ root: PROTOCOLS_SRC, f })),
    ...files(join(CONTRACTS_ROOT, 'src'), (f) => f.endsWith('.ts') && !NOT_BUILD_CODE.test(f)).map((f) => ({ root: CONTRACTS_ROOT, f })),
    ...files(join(CONTRACTS_ROOT, 'solidity'), (f) => f.endsWith('.sol')).map((f) => ({ root: CONTRACTS_ROOT, f })),
  ];
  for (const { root, f } of sources) hash.update(`\0${relative(root, f)}\0`).update(readFileSync(f));
  for (const pkg of [
    '@foundry-rs/anvil',
    'solc',
    '@openzeppelin/contracts',
    '@uniswap/v2-core',
    '@uniswap/v2-periphery',
    '@uniswap/v3-core',
    '@uniswap/v3-periphery',
    '@uniswap/swap-router-contracts',
    '@aave/core-v3',
    '@across-protocol/contracts',
    'ethers',
  ]) {
    hash.update(`\0${pkg}@${packageVersion(pkg)}`);
  }
  cached = hash.digest('hex').slice(0, 16);
  return cached;
}

/** Version of the mainnet-shaped profile's saved state: the devnet's code plus the profile's own. */
export function profileCodeVersion(): string {
  const hash = createHash('sha256').update(codeVersion());
  for (const f of files(PROFILE_DIR, (file) => file.endsWith('.ts') && !NOT_BUILD_CODE.test(file)))
    hash.update(`\0${relative(PROFILE_DIR, f)}\0`).update(readFileSync(f));
  hash.update(`\0@uniswap/swap-router-contracts@${packageVersion('@uniswap/swap-router-contracts')}`);
  return hash.digest('hex').slice(0, 16);
}
