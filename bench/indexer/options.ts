/** Command-line options of `npm run bench -- indexer [...]` and `indexer-remote` (pure, unit-tested). */

/**
 * The hosted-provider emulator (`@tokensvc/testing` startRpcEmulator) put in front of the bench
 * anvil by `--remote`: every contender reads the chain through it, in the same run.
 */
export interface RemotePlan {
  /** added to every HTTP request */
  roundTripMs: number;
  /** HTTP requests per second (token bucket; 429 beyond); 0 = no budget */
  requestsPerSecond: number;
  /** requests the bucket holds (default: a second's worth) */
  burst: number;
  /** eth_getLogs over more blocks is refused (provider texts) */
  maxBlockRange: number;
  /** eth_getLogs answering more logs is refused (Infura/Alchemy texts with a block range that fits) */
  maxResults: number;
  /** JSON-RPC batches above this size are refused */
  maxBatch: number;
  /** share of HTTP requests answered 502 or dropped (0 by default) */
  failureShare: number;
  /** port of the emulator on 127.0.0.1 (0: the bench anvil's port + 1) */
  port: number;
}

/**
 * A typical paid plan of a hosted provider (see bench/README.md, "Backfill over a remote RPC"):
 * 40 ms round trip, 100 requests/s with a second's burst, eth_getLogs capped at 2,000 blocks and
 * 10,000 logs (Alchemy's and Infura's caps, with their texts), batches of at most 100, no failures.
 */
export const PAID_PLAN: RemotePlan = {
  roundTripMs: 40,
  requestsPerSecond: 100,
  burst: 100,
  maxBlockRange: 2_000,
  maxResults: 10_000,
  maxBatch: 100,
  failureShare: 0,
  port: 0,
};

/** the raw baseline's requests in flight through the emulator, unless --raw-in-flight says otherwise */
export const REMOTE_RAW_IN_FLIGHT = 4;

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
  /** eth_getLogs requests the raw baseline (and the node floor) keeps in flight */
  rawInFlight: number;
  /** backfills by our indexer (fresh database each; the median is reported, the last one goes on to the head-lag phase) */
  oursRuns: number;
  /** anvil port of the bench chain */
  port: number;
  ponderTimeoutS: number;
  oursTimeoutS: number;
  /** every contender through the hosted-provider emulator (`--remote` or any of its flags) */
  remote?: RemotePlan;
}

export const DEFAULT_OPTIONS: IndexerBenchOptions = {
  events: 1_000_000,
  eventsPerTx: 500,
  txsPerBlock: 4,
  ponder: true,
  headLagSeconds: 30,
  headLagEventsPerBlock: 300,
  rawRuns: 3,
  rawInFlight: 2,
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
  '--raw-in-flight': 'rawInFlight',
  '--ours-runs': 'oursRuns',
  '--port': 'port',
  '--ponder-timeout': 'ponderTimeoutS',
  '--ours-timeout': 'oursTimeoutS',
};

/** The emulator's settings; any of them implies --remote. */
const REMOTE: Record<string, keyof RemotePlan> = {
  '--rtt-ms': 'roundTripMs',
  '--rps': 'requestsPerSecond',
  '--burst': 'burst',
  '--max-range': 'maxBlockRange',
  '--max-results': 'maxResults',
  '--max-batch': 'maxBatch',
  '--failure-share': 'failureShare',
  '--proxy-port': 'port',
};

export const USAGE = `indexer bench options: ${Object.keys(NUMERIC).join(' <n>, ')} <n>, --no-ponder; through the hosted-provider emulator: --remote, ${Object.keys(REMOTE).join(' <n>, ')} <n>`;

export function parseIndexerOptions(args: readonly string[]): IndexerBenchOptions {
  const o: IndexerBenchOptions = { ...DEFAULT_OPTIONS };
  let remote: RemotePlan | undefined;
  let headLagGiven = false;
  let rawInFlightGiven = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--no-ponder') {
      o.ponder = false;
      continue;
    }
    if (arg === '--remote') {
      remote ??= { ...PAID_PLAN };
      continue;
    }
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    const key = NUMERIC[flag];
    const remoteKey = REMOTE[flag];
    if (!key && !remoteKey) throw new Error(`unknown option ${arg}; ${USAGE}`);
    const raw = inline ?? args[++i];
    const value = Number(raw?.replace(/_/g, ''));
    if (remoteKey === 'failureShare') {
      if (raw === undefined || !Number.isFinite(value) || value < 0 || value >= 1)
        throw new Error(`${flag} needs a share in [0, 1), got ${raw ?? 'nothing'}`);
    } else if (raw === undefined || !Number.isInteger(value) || value < 0)
      throw new Error(`${flag} needs a non-negative integer, got ${raw ?? 'nothing'}`);
    if (remoteKey) {
      remote ??= { ...PAID_PLAN };
      remote[remoteKey] = value;
      // a budget without its own burst keeps "a second's worth"
      if (remoteKey === 'requestsPerSecond' && !args.some((a) => a.split('=', 1)[0] === '--burst')) remote.burst = value;
    } else {
      (o[key!] as number) = value;
      if (key === 'headLagSeconds') headLagGiven = true;
      if (key === 'rawInFlight') rawInFlightGiven = true;
    }
  }
  if (o.events < 1) throw new Error('--events must be at least 1');
  if (o.rawInFlight < 1) throw new Error('--raw-in-flight must be at least 1');
  if (remote) {
    if (remote.maxResults < 1 || remote.maxBlockRange < 1 || remote.maxBatch < 1)
      throw new Error('--max-results, --max-range and --max-batch must be at least 1');
    o.remote = remote;
    // the head-lag phase measures the local node's follow path; through the emulator it is skipped unless asked for
    if (!headLagGiven) o.headLagSeconds = 0;
    // 40 ms away, two requests in flight leave the link idle between replies: the raw baseline reads four ahead
    if (!rawInFlightGiven) o.rawInFlight = REMOTE_RAW_IN_FLIGHT;
  }
  return o;
}
