/**
 * Which environment variables the code reads, found in its sources: the names passed to the
 * config readers (`r.int('PORT', ...)`, `urlList(r, 'X')`, `` addressVar(r, `WRAPPED_NATIVE_${n}`) ``),
 * `env['X']` / `env[rpcVar(n)]` in libs/config, and every `process.env` access. A name built from a
 * network or an app (`` `RPC_URL_${...}` ``) is reported as `RPC_URL_<*>`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SCANNED_ROOTS = ['apps', 'libs', 'tools', 'bench', 'examples'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'tmp', '.devnet']);

/** A variable name as the code spells it, and the files that read it (relative to the root). */
export interface VariableRead {
  name: string;
  files: string[];
}

const NAME = String.raw`([A-Z][A-Z0-9_]*?)(_\$\{|['\`])`;
const PATTERNS: readonly RegExp[] = [
  // the EnvReader's methods, on `r` (the readers of libs/config and the apps' config files)
  new RegExp(String.raw`\br\.[a-zA-Z]+\(\s*['\`]` + NAME, 'g'),
  // helpers that take the reader first: urlList(r, 'X'), addressVar(r, `X_${n}`, ...)
  new RegExp(String.raw`\b[a-zA-Z]+\(\s*r,\s*['\`]` + NAME, 'g'),
  new RegExp(String.raw`\b(?:process\.)?env\[\s*['\`]` + NAME, 'g'),
  // the examples' env('TOKENSVC_URL', fallback)
  new RegExp(String.raw`\benv\(\s*['\`]` + NAME, 'g'),
  /\bprocess\.env\.([A-Z][A-Z0-9_]*)()/g,
  // names built by a function (rpcVar(n) = `RPC_URL_${...}`) in the config library
  new RegExp(String.raw`return\s+\`` + NAME, 'g'),
];

function sourceFiles(dir: string, out: string[], tests: boolean): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out, tests);
    else if (/\.tsx?$/.test(e.name) && (tests || !/\.(spec|int-spec|e2e-spec)\.ts$/.test(e.name)) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** `tests`: also the spec files (their variables are documented too, in the tests section). */
export function scanVariableReads(root: string, opts: { tests?: boolean } = {}): VariableRead[] {
  const byName = new Map<string, Set<string>>();
  for (const top of SCANNED_ROOTS) {
    for (const file of sourceFiles(join(root, top), [], opts.tests === true)) {
      if (file.endsWith(join('tools', 'docs', 'env-scan.ts'))) continue;
      const text = readFileSync(file, 'utf8');
      const rel = relative(root, file);
      for (const re of PATTERNS) {
        for (const m of text.matchAll(re)) {
          const name = `${m[1]}${m[2] === '_${' ? '_<*>' : ''}`;
          let files = byName.get(name);
          if (!files) byName.set(name, (files = new Set()));
          files.add(rel);
        }
      }
    }
  }
  return [...byName].map(([name, files]) => ({ name, files: [...files].sort() })).sort((a, b) => a.name.localeCompare(b.name));
}
