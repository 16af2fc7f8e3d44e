/**
 * Compiles one app for its image: `node -r ./tools/register.js tools/build/build-app.ts <app> [--out dir]`.
 *
 * Starting from the target's entry (apps/<app>/src/main.ts, or the migration CLI) it follows every local require (relative paths and the
 * @tokensvc/* aliases, which SWC rewrites to relative paths) and writes each file it reaches as
 * JavaScript, with its source map, under the same relative path in the output folder (default
 * dist/<app>). Only what the app reaches is shipped: another app's code, tests and devnet code
 * that the app does not import stay out. External packages stay `require`s of node_modules.
 *
 * Why not `tsc` or `@swc/cli`: both compile whole folders (every app and lib, tests included) and
 * leave the path aliases to another tool; the same SWC options as tools/register.js (decorator
 * metadata for NestJS DI, alias rewriting) are reused here, so the image runs exactly the code the
 * tests ran. The result is printed as JSON: files, bytes, and the external packages it requires.
 */
import { builtinModules } from 'node:module';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const { swcOptions } = require('../register.js') as { swcOptions: Record<string, unknown> };
const swc = require('@swc/core') as typeof import('@swc/core');

import { BUILD_TARGETS } from './targets';

const ROOT = resolve(__dirname, '..', '..');

/**
 * Files an app loads by path rather than by `require` (worker threads), so the walk cannot see them.
 * A new `new Worker(file)` in production code belongs here.
 */
const EXTRA_ENTRIES: Record<string, readonly string[]> = {
  indexer: ['apps/indexer/src/rpc/logs-worker.ts'],
};

/**
 * Development packages that production code names but never loads: the require sits inside a
 * function no app calls. They are left out of the image on purpose; a call would fail with
 * "Cannot find module". Each entry says where and why.
 */
export const LAZY_DEV_REQUIRES: Readonly<Record<string, string>> = {
  solc: 'libs/contracts/src/build/compile.ts loads solc-js only to compile the devnet contracts (npm run contracts:build, the devnet); @tokensvc/contracts re-exports it, no app calls it',
};

/**
 * Data files that code reads by path: shipped with any build that reaches a file under the key.
 * The contract artifacts are generated (npm run contracts:build), not committed; the registry is
 * committed (npm run registry:gen).
 */
const ASSETS: Readonly<Record<string, readonly string[]>> = {
  'libs/contracts/src/': ['libs/contracts/generated'],
  // the real-network registry (REGISTRY=shipped), read by path beside its loader
  'libs/chain/src/registry/': ['libs/chain/src/registry/networks.registry.json'],
};

export interface BuildResult {
  app: string;
  outDir: string;
  files: number;
  bytes: number;
  /** npm packages the app requires at run time, each at the version the lock file installs */
  packages: Record<string, string>;
}

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** The file a local specifier names, as Node would resolve it from TypeScript sources. */
function resolveLocal(fromFile: string, spec: string): string {
  const base = resolve(dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.json`, `${base}.js`, join(base, 'index.ts'), join(base, 'index.js')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${relative(ROOT, fromFile)}: cannot resolve "${spec}"`);
}

/** Package name of a bare specifier: `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

export function buildApp(app: string, outDir = join(ROOT, 'dist', app)): BuildResult {
  const entry = BUILD_TARGETS[app];
  if (entry === undefined) throw new Error(`unknown build target "${app}": one of ${Object.keys(BUILD_TARGETS).join(', ')}`);
  const main = join(ROOT, entry);
  rmSync(outDir, { recursive: true, force: true });
  const queue = [main, ...(EXTRA_ENTRIES[app] ?? []).map((f) => join(ROOT, f))];
  const seen = new Set<string>(queue);
  const packages = new Set<string>();
  let bytes = 0;
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const rel = relative(ROOT, file);
    const target = join(outDir, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    if (!file.endsWith('.ts')) {
      const body = readFileSync(file);
      writeFileSync(target, body);
      bytes += body.length;
      continue;
    }
    const out = swc.transformSync(readFileSync(file, 'utf8'), {
      ...swcOptions,
      filename: file,
      sourceFileName: relative(dirname(target), file),
    });
    const code = `${out.code}\n//# sourceMappingURL=${target.split('/').pop() as string}.map\n`;
    writeFileSync(target, code);
    writeFileSync(`${target}.map`, out.map ?? '');
    bytes += code.length + (out.map?.length ?? 0);
    // require("x") as SWC writes it, and require.resolve('x') as the sources do (files located in a package)
    for (const m of out.code.matchAll(/\brequire(?:\.resolve)?\((["'])([^"']+)\1/g)) {
      const spec = m[2] as string;
      if (spec.startsWith('.')) {
        const dep = resolveLocal(file, spec);
        if (!seen.has(dep)) {
          seen.add(dep);
          queue.push(dep);
        }
      } else if (!BUILTINS.has(spec) && LAZY_DEV_REQUIRES[packageName(spec)] === undefined) packages.add(packageName(spec));
    }
  }
  for (const [prefix, dirs] of Object.entries(ASSETS)) {
    if (![...seen].some((f) => relative(ROOT, f).startsWith(prefix))) continue;
    for (const dir of dirs) {
      if (!existsSync(join(ROOT, dir)))
        throw new Error(`${dir} is missing: ${prefix} reads it at run time (run npm run contracts:build first)`);
      cpSync(join(ROOT, dir), join(outDir, dir), { recursive: true, filter: (src) => !src.endsWith('.tmp') });
    }
  }
  const versions = lockedVersions([...packages].sort());
  // One start file for every image: `node main.js` (the migrate target takes its CLI arguments after it).
  writeFileSync(join(outDir, 'main.js'), `'use strict';\nrequire('./${entry.replace(/\.ts$/, '.js')}');\n`);
  // The image installs exactly these (npm install --omit=dev against the root lock file).
  writeFileSync(
    join(outDir, 'package.json'),
    `${JSON.stringify({ name: `@tokensvc/${app}`, private: true, dependencies: versions }, null, 2)}\n`,
  );
  return { app, outDir, files: seen.size, bytes, packages: versions };
}

/** Version the root lock file installs for each package; a package the lock marks dev-only is an error (the image would lack it). */
function lockedVersions(names: string[]): Record<string, string> {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; dev?: boolean }>;
  };
  const out: Record<string, string> = {};
  for (const name of names) {
    const entry = lock.packages[`node_modules/${name}`];
    if (!entry?.version) throw new Error(`the app requires "${name}", which package-lock.json does not install`);
    if (entry.dev) throw new Error(`the app requires "${name}", a development dependency: declare it in "dependencies"`);
    out[name] = entry.version;
  }
  return out;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const app = args[0];
  const outFlag = args.indexOf('--out');
  if (!app || app.startsWith('-')) {
    process.stderr.write(`usage: build-app.ts <${Object.keys(BUILD_TARGETS).join('|')}> [--out dir]\n`);
    process.exit(2);
  }
  try {
    const result = buildApp(app, outFlag >= 0 && args[outFlag + 1] ? resolve(args[outFlag + 1] as string) : undefined);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
}
