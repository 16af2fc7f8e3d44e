/**
 * Completes dist/libs/sdk (after tsc wrote dist/libs/sdk/dist) into a publishable package: its
 * package.json, README and the generated schema.d.ts (tsc does not copy declaration sources).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const sdk = join(root, 'libs', 'sdk');
const out = join(root, 'dist', 'libs', 'sdk');
for (const f of ['package.json', 'README.md']) copyFileSync(join(sdk, f), join(out, f));
mkdirSync(join(out, 'dist', 'generated'), { recursive: true });
copyFileSync(join(sdk, 'src', 'generated', 'schema.d.ts'), join(out, 'dist', 'generated', 'schema.d.ts'));
console.log('sdk: package in dist/libs/sdk (npm pack dist/libs/sdk)');
