/**
 * Writes libs/chain/src/registry/networks.registry.json from the protocols' npm address books
 * (tools/registry/derive.ts).
 *   npm run registry:gen     regenerate the file
 *   npm run registry:check   re-derive and fail, naming each differing entry, if the file differs
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { SHIPPED_REGISTRY_FILE } from '@tokensvc/chain';
import { deriveRegistry } from './derive';
import { registryDiff, registryText } from './registry-text';
import { loadSources } from './sources';

function main(): void {
  const check = process.argv.includes('--check');
  const derived = deriveRegistry(loadSources());
  const text = registryText(derived);
  const file = relative(process.cwd(), SHIPPED_REGISTRY_FILE);
  if (!check) {
    writeFileSync(SHIPPED_REGISTRY_FILE, text);
    process.stdout.write(`wrote ${file} (${Object.keys(derived.networks).length} networks)\n`);
    return;
  }
  const committed = readFileSync(SHIPPED_REGISTRY_FILE, 'utf8');
  if (committed === text) {
    process.stdout.write(`${file} matches the installed packages\n`);
    return;
  }
  const diff = registryDiff(JSON.parse(committed), derived);
  process.stderr.write(
    `${file} differs from what the installed packages give (npm run registry:gen):\n${(diff.length > 0 ? diff : ['(formatting only)']).map((d) => `  ${d}`).join('\n')}\n`,
  );
  process.exit(1);
}

main();
