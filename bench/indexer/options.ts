/** Command-line options of `npm run bench -- indexer [...]` (pure, unit-tested). */

export interface IndexerBenchOptions {
  /** events to generate (the chain is saved per size) */
  events: number;
  eventsPerTx: number;
  txsPerBlock: number;
  ponder: boolean;
  /** head-lag phase: one block per second for this many seconds (0 = skip) */
  headLagSeconds: number;
  headLagEventsPerBlock: number;
  rawRuns: number;
  /** backfills by our indexer (fresh database each; the median is reported, the last one goes on to the head-lag phase) */
  oursRuns: number;
  /** anvil port of the bench chain */
  port: number;
  ponderTimeoutS: number;
  oursTimeoutS: number;
}

export const DEFAULT_OPTIONS: IndexerBenchOptions = {
  events: 1_000_000,
  eventsPerTx: 500,
  txsPerBlock: 4,
  ponder: true,
  headLagSeconds: 30,
  headLagEventsPerBlock: 300,
  rawRuns: 3,
  oursRuns: 3,
  port: 48545,
  ponderTimeoutS: 1200,
  oursTimeoutS: 600,
};

const NUMERIC: Record<string, keyof IndexerBenchOptions> = {
  '--events': 'events',
  '--events-per-tx': 'eventsPerTx',
  '--txs-per-block': 'txsPerBlock',
  '--head-lag-seconds': 'headLagSeconds',
  '--head-lag-events': 'headLagEventsPerBlock',
  '--raw-runs': 'rawRuns',
  '--ours-runs': 'oursRuns',
  '--port': 'port',
  '--ponder-timeout': 'ponderTimeoutS',
  '--ours-timeout': 'oursTimeoutS',
};

export const USAGE = `indexer bench options: ${Object.keys(NUMERIC).join(' <n>, ')} <n>, --no-ponder`;

export function parseIndexerOptions(args: readonly string[]): IndexerBenchOptions {
  const o: IndexerBenchOptions = { ...DEFAULT_OPTIONS };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--no-ponder') {
      o.ponder = false;
      continue;
    }
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    const key = NUMERIC[flag];
    if (!key) throw new Error(`unknown option ${arg}; ${USAGE}`);
    const raw = inline ?? args[++i];
    const value = Number(raw?.replace(/_/g, ''));
    if (raw === undefined || !Number.isInteger(value) || value < 0) throw new Error(`${flag} needs a non-negative integer, got ${raw ?? 'nothing'}`);
    (o[key] as number) = value;
  }
  if (o.events < 1) throw new Error('--events must be at least 1');
  return o;
}
