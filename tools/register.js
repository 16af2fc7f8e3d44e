// Runs TypeScript sources directly: `node -r ./tools/register.js app.ts`. SWC transpiles each .ts
// file on first require (with decorator metadata, which NestJS DI needs; tsconfig "paths" become
// relative requires of the @tokensvc/* libs' sources), with the same options as jest.preset.js.
//
// Output is cached on disk by content hash (TOKENSVC_REGISTER_CACHE, default
// node_modules/.cache/tokensvc-register; a cache that cannot be written is skipped), so a warm
// start loads neither SWC nor the TypeScript compiler: a process starts ~0.5 s sooner than with
// @swc-node/register, which loads `typescript` (9 MB) to read tsconfig.json on every start.
// Error stacks point into the .ts sources (source-map-support, maps read only when a stack is).
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { threadId } = require('node:worker_threads');

const ROOT = path.join(__dirname, '..');

/** tsconfig compilerOptions, following "extends" (the repo's tsconfigs are plain JSON). */
function compilerOptions(file) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  const base = json.extends ? compilerOptions(path.resolve(path.dirname(file), json.extends)) : {};
  const own = { ...(json.compilerOptions ?? {}) };
  if (own.baseUrl !== undefined) own.baseUrl = path.resolve(path.dirname(file), own.baseUrl);
  return { ...base, ...own };
}

const project = process.env.SWC_NODE_PROJECT || path.join(ROOT, 'tsconfig.json');
const ts = compilerOptions(project);
const baseUrl = ts.baseUrl ?? path.dirname(project);
const paths = Object.fromEntries(
  Object.entries(ts.paths ?? {}).map(([alias, targets]) => [alias, targets.map((t) => path.resolve(baseUrl, t))]),
);

const swcOptions = {
  jsc: {
    target: String(ts.target ?? 'es2022').toLowerCase(),
    parser: { syntax: 'typescript', tsx: false, decorators: Boolean(ts.experimentalDecorators), dynamicImport: true },
    transform: {
      legacyDecorator: Boolean(ts.experimentalDecorators),
      decoratorMetadata: Boolean(ts.emitDecoratorMetadata),
      useDefineForClassFields: Boolean(ts.useDefineForClassFields),
    },
    keepClassNames: true,
    externalHelpers: false,
    baseUrl,
    paths,
  },
  module: { type: 'commonjs', noInterop: ts.esModuleInterop === false, ignoreDynamic: false },
  sourceMaps: true,
  inlineSourcesContent: true,
  isModule: true,
  minify: false,
  swcrc: false,
};

let swc;
const swcVersion = (() => {
  try {
    return JSON.parse(fs.readFileSync(require.resolve('@swc/core/package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
})();
// Everything the output depends on besides a file's path and text.
const salt = createHash('sha256')
  .update(JSON.stringify({ swcVersion, swcOptions, v: 1 }))
  .digest('hex');

const cacheDir = process.env.TOKENSVC_REGISTER_CACHE || path.join(ROOT, 'node_modules', '.cache', 'tokensvc-register');
let cacheWritable = true;

/** source maps by file, read (from the cache or the compile) only when an error stack needs one */
const maps = new Map();
require('source-map-support').install({
  environment: 'node',
  handleUncaughtExceptions: false,
  retrieveSourceMap(file) {
    const m = maps.get(file);
    if (m === undefined) return null;
    try {
      return { url: file, map: typeof m === 'function' ? m() : m };
    } catch {
      return null;
    }
  },
});

function compile(source, filename) {
  const key = createHash('sha256').update(salt).update('\0').update(filename).update('\0').update(source).digest('hex');
  const file = path.join(cacheDir, key.slice(0, 2), `${key}.js`);
  try {
    const code = fs.readFileSync(file, 'utf8');
    maps.set(filename, () => fs.readFileSync(`${file}.map`, 'utf8'));
    return code;
  } catch {
    // not cached yet
  }
  swc ??= require('@swc/core');
  const out = swc.transformSync(source, { ...swcOptions, filename });
  maps.set(filename, out.map);
  if (cacheWritable) {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // Written under a name of its own (process and thread) and renamed: a concurrent reader
      // never sees half a file.
      const tmp = `${file}.${process.pid}-${threadId}.tmp`;
      fs.writeFileSync(`${tmp}.map`, out.map ?? '');
      fs.renameSync(`${tmp}.map`, `${file}.map`);
      fs.writeFileSync(tmp, out.code);
      fs.renameSync(tmp, file);
    } catch {
      cacheWritable = false;
    }
  }
  return out.code;
}

// The build (tools/build/build-app.ts) compiles with the very same options.
module.exports = { swcOptions };

require.extensions['.ts'] = function loadTs(module, filename) {
  module._compile(compile(fs.readFileSync(filename, 'utf8'), filename), filename);
};

// `node tools/register.js --warm apps libs`: fills the cache with every .ts file under the given
// folders (the Docker image does this at build time, where the cache can still be written).
if (require.main === module && process.argv[2] === '--warm') {
  let files = 0;
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) {
        compile(fs.readFileSync(p, 'utf8'), p);
        files++;
      }
    }
  };
  for (const dir of process.argv.slice(3)) walk(path.resolve(dir));
  if (!cacheWritable) throw new Error(`the cache ${cacheDir} cannot be written`);
  process.stdout.write(`compiled ${files} files into ${cacheDir}\n`);
}
