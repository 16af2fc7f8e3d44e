/**
 * npm run docs:gen: writes the generated docs (docs/configuration.md); `--check` fails instead when
 * one is out of date (run by `npm test`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CONFIGURATION_DOC, configurationMarkdown } from './configuration';

const DOCS: { path: string; render: () => string }[] = [{ path: CONFIGURATION_DOC, render: configurationMarkdown }];

const check = process.argv.includes('--check');
let stale = 0;
for (const doc of DOCS) {
  const want = doc.render();
  const name = relative(process.cwd(), doc.path);
  if (check) {
    if (!existsSync(doc.path) || readFileSync(doc.path, 'utf8') !== want) {
      stale++;
      process.stderr.write(`${name} is out of date: run npm run docs:gen\n`);
    }
  } else {
    writeFileSync(doc.path, want);
    process.stdout.write(`wrote ${name}\n`);
  }
}
process.exit(stale > 0 ? 1 : 0);
