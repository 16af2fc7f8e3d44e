/**
 * Builds the console (apps/console): TypeScript checked with its own tsconfig (DOM types), then
 * bundled by esbuild into `dist/console` (or the given folder):
 *   index.html   the page the public listener serves at /console
 *   admin.html   the page the admin listener serves at /console (the key management part)
 *   assets/      console-<hash>.js and .css (+ source maps), served at /console/assets/<file>
 * `npm run console:build [-- --out <dir>] [-- --no-check]`; `npm start` and the browser test call buildConsole().
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(__dirname, '..', '..');
export const CONSOLE_SRC = join(ROOT, 'apps', 'console');
export const DEFAULT_CONSOLE_DIR = join(ROOT, 'dist', 'console');

export interface BuiltConsole {
  readonly dir: string;
  readonly files: string[];
  readonly ms: number;
}

const page = (mode: 'public' | 'admin', js: string, css: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${mode === 'admin' ? 'Admin console' : 'Console'} · tokensvc</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/${css}">
<script defer src="/console/assets/${js}"></script>
</head>
<body data-mode="${mode}"><noscript>The console needs JavaScript.</noscript></body>
</html>
`;

/** Type-checks the console's sources (the root tsconfig leaves them out: they use DOM types). */
export function checkConsoleTypes(): void {
  const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
  const r = spawnSync(tsc, ['-p', join(CONSOLE_SRC, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the console does not type-check:\n${r.stdout}${r.stderr}`);
}

export async function buildConsole(o: { out?: string; check?: boolean } = {}): Promise<BuiltConsole> {
  const started = Date.now();
  const dir = resolve(o.out ?? DEFAULT_CONSOLE_DIR);
  if (o.check !== false) checkConsoleTypes();
  const assets = join(dir, 'assets');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(assets, { recursive: true });
  const result = await build({
    entryPoints: { console: join(CONSOLE_SRC, 'src', 'main.ts') },
    outdir: assets,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    metafile: true,
    logLevel: 'silent',
    legalComments: 'eof',
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => basename(f));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  if (!js || !css) throw new Error(`esbuild wrote no script or stylesheet: ${outputs.join(', ')}`);
  writeFileSync(join(dir, 'index.html'), page('public', js, css));
  writeFileSync(join(dir, 'admin.html'), page('admin', js, css));
  return { dir, files: ['index.html', 'admin.html', ...outputs.map((f) => `assets/${f}`)], ms: Date.now() - started };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  buildConsole({ out: outAt >= 0 ? args[outAt + 1] : undefined, check: !args.includes('--no-check') }).then(
    (b) => process.stdout.write(`console built into ${b.dir} in ${b.ms} ms: ${b.files.join(', ')}\n`),
    (e: unknown) => {
      process.stderr.write(`console build failed: ${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}
