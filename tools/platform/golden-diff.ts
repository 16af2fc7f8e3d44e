/**
 * npm run golden:diff -- <old answers.json> [<new answers.json>]: what a re-record changed, summed
 * up for the note that must explain it (docs/golden-check.md): per request kind and per JSON path
 * (array indexes as [*]), how many values changed, and how many of them are the same number
 * written with more or fewer digits (relative difference below 1e-12). The new file defaults to
 * tools/platform/golden/answers.json (`git show HEAD~1:tools/platform/golden/answers.json > /tmp/old.json` gives an old one).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffJson, type GoldenFile } from './golden';

const [oldPath, newPath = join(__dirname, 'golden', 'answers.json')] = process.argv.slice(2);
if (!oldPath) {
  process.stderr.write('usage: npm run golden:diff -- <old answers.json> [<new answers.json>]\n');
  process.exit(2);
}
const read = (p: string): GoldenFile => JSON.parse(readFileSync(p, 'utf8')) as GoldenFile;
const before = read(oldPath);
const after = read(newPath);
const key = (e: { method: string; path: string }): string => `${e.method} ${e.path}`;
const old = new Map(before.entries.map((e) => [key(e), e]));

/** `a`, `b`: values as diffJson shows them (JSON, or "(absent)", or a shortened long value) */
const asNumber = (shown: string): number => {
  try {
    return Number(JSON.parse(shown));
  } catch {
    return NaN;
  }
};
const sameNumber = (a: string, b: string): boolean => {
  const x = asNumber(a);
  const y = asNumber(b);
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y), 1e-300);
};

const byPath = new Map<string, { kinds: Set<string>; values: number; digitsOnly: number; example: string }>();
let requests = 0;
let added = 0;
for (const a of after.entries) {
  const g = old.get(key(a));
  old.delete(key(a));
  if (!g) {
    added++;
    continue;
  }
  const diffs = diffJson({ status: g.status, body: g.body }, { status: a.status, body: a.body }, Number.MAX_SAFE_INTEGER);
  if (diffs.length > 0) requests++;
  for (const d of diffs) {
    const path = d.path.replace(/\[\d+\]/g, '[*]').replace(/ \(hex char .*\)$/, ' (calldata)');
    let p = byPath.get(path);
    if (!p) byPath.set(path, (p = { kinds: new Set(), values: 0, digitsOnly: 0, example: `${d.golden} -> ${d.actual}` }));
    p.kinds.add(a.kind);
    p.values++;
    if (sameNumber(d.golden, d.actual)) p.digitsOnly++;
  }
}
process.stdout.write(`${requests} of ${after.entries.length} requests changed; ${added} new, ${old.size} gone\n`);
for (const [path, p] of [...byPath].sort((x, y) => y[1].values - x[1].values)) {
  process.stdout.write(
    `${String(p.values).padStart(6)} ${String(p.digitsOnly).padStart(6)} same number  ${path}  [${[...p.kinds].join(', ')}]  e.g. ${p.example.slice(0, 120)}\n`,
  );
}
