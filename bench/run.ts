/** `npm run bench`: every benchmark, each next to its baseline measured in the same run. */
import { runCatalogBench, type BenchRow } from './catalog.bench';

function table(rows: BenchRow[]): string {
  const base = rows[0]!;
  const lines = rows.map((r) =>
    [r.name.padEnd(40), r.reqPerSec.toFixed(0).padStart(8), `${r.p50}`.padStart(6), `${r.p99}`.padStart(6), (r.reqPerSec / base.reqPerSec).toFixed(2).padStart(10), (r.p99 / Math.max(base.p99, 1)).toFixed(2).padStart(10), `${r.errors}`.padStart(6)].join(' '),
  );
  return [['target'.padEnd(40), 'req/s'.padStart(8), 'p50ms'.padStart(6), 'p99ms'.padStart(6), 'x rps'.padStart(10), 'x p99'.padStart(10), 'errors'.padStart(6)].join(' '), ...lines].join('\n');
}

async function main(): Promise<void> {
  const log = (s: string): void => void process.stdout.write(`${s}\n`);
  const rows = await runCatalogBench(log);
  log(`\n/v2/platforms (ratios against the first row)\n${table(rows)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
