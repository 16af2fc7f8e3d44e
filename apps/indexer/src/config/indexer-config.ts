import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { loadNetworkFacts } from '@tokensvc/chain';
import { EnvReader, loadServiceConfig, type CommonConfig, type Env } from '@tokensvc/config';
import { STREAMS } from '@tokensvc/messages';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import type { PoolScopeMode } from '../registry/scope';

/** How one network is indexed. */
export interface NetworkIndexingConfig {
  network: Network;
  /** the first of `rpcUrls` */
  rpcUrl: string;
  /** RPC_URL_<NETWORK>, comma-separated: every read goes through these (failover, budgets); default [rpcUrl] */
  rpcUrls?: readonly string[];
  /**
   * other RPC URLs of the network (RPC_FALLBACK_URLS_<NETWORK>, comma-separated), never read from:
   * asked, with `rpcUrls`, only when the safe head is below the cursor, so a node merely behind
   * does not cause a rollback
   */
  fallbackRpcUrls?: string[];
  /** per-URL request budget (RPC_MAX_RPS_<NETWORK>, requests per second; 0 = none) */
  maxRps?: number;
  /**
   * first block to index: manifest `history.deployBlock`, else START_BLOCK_<NETWORK>, else the
   * block START_DAYS_<NETWORK> days before the head (resolved at start by the preflight), else 0
   */
  startBlock: number;
  /** START_BLOCK_<NETWORK> or the manifest's deploy block was given (the preflight checks it is not in the future) */
  startBlockGiven?: boolean;
  /**
   * the start block has history before it that is not read (START_BLOCK_<NETWORK> or
   * START_DAYS_<NETWORK>; not a manifest's deploy block, before which there is nothing): the scope's
   * state at the block before it is bootstrapped by multicall (pipeline/bootstrap-scope.ts)
   */
  bootstrap?: boolean;
  /** START_DAYS_<NETWORK>: index the last N days (when no start block is given) */
  startDays?: number;
  /** reorgs deeper than this raise an alert (FINALITY_DEPTH_<NETWORK> overrides the network default) */
  finalityDepth: number;
  /** largest eth_getLogs range tried (MAX_LOG_RANGE_<NETWORK> overrides the network default) */
  maxLogRange: number;
  /** head polling interval */
  pollMs: number;
  /** listed ERC-20 tokens (verified) */
  listedTokens: string[];
  /** INDEXER_POOLS: pools (and aTokens) only among listed tokens, or every one the factories create. Default listed */
  pools?: PoolScopeMode;
  /**
   * INDEXER_POOL_FLOOR_<NETWORK>: at the start-block bootstrap, pools worth less than this many
   * whole wrapped-native tokens are left out (see pipeline/bootstrap-scope.ts). Default 0 (none)
   */
  poolFloorNative?: string;
  /** the network's wrapped native token (lowercase), from the address book */
  wrappedNative?: string;
}

export interface IndexerConfig extends CommonConfig {
  indexing: NetworkIndexingConfig[];
  /** this replica's lease holder id */
  instanceId: string;
  leaseTtlMs: number;
  /** eth_getLogs ranges fetched ahead of the writer */
  prefetch: number;
  /** adaptive ranges aim at this many logs per request */
  targetLogsPerRange: number;
  /** first eth_getLogs range (blocks): small, so a dense chain does not start with huge responses */
  initialLogRange: number;
  /** eth_getLogs ranges per fetched batch */
  rangesPerBatch: number;
  /**
   * while Postgres is busy, fetched batches gather in the next written batch up to this many logs
   * (each written batch pays per-batch costs: balance upserts, statements)
   */
  maxBatchLogs: number;
  /** ready when every network's cursor is within this many blocks of its head */
  readyLagBlocks: number;
  /** JetStream stream and subject prefix of the indexer's events ('' prefix = the default `chain`) */
  eventsStream: string;
  eventsSubjectPrefix: string;
  publishEvents: boolean;
  rpcTimeoutMs: number;
  /** eth_getLogs replies are fetched and parsed in a worker thread */
  logsWorker: boolean;
  /** during a backfill, balance changes of at most this many (token, holder) pairs are held in memory */
  heldBalancePairs: number;
  /** at most this often the derivation stage refreshes head-only state; 0 = never */
  refreshHeadMs: number;
}

const suffix = (n: Network): string => n.toUpperCase();

/** A comma-separated list of http(s) URLs (empty when unset). */
function urlList(r: EnvReader, name: string): string[] {
  const urls = (r.optional(name) ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  for (const u of urls) {
    const protocol = URL.canParse(u) ? new URL(u).protocol : '';
    if (protocol !== 'http:' && protocol !== 'https:') r.problems.push(`${name} must be comma-separated http or https URLs, got "${u}"`);
  }
  return urls;
}

/** An integer variable at least `min`, or undefined when unset. */
function optionalInt(r: EnvReader, name: string, min: number): number | undefined {
  return r.optional(name) === undefined ? undefined : r.int(name, min, min);
}

/** A non-negative decimal amount ("0.5", "100"), or undefined when unset. */
function decimalAmount(r: EnvReader, name: string): string | undefined {
  const v = r.optional(name)?.trim();
  if (v === undefined || v === '') return undefined;
  if (!/^[0-9]+(\.[0-9]+)?$/.test(v))
    r.problems.push(`${name} must be a non-negative decimal amount of the network's wrapped native token (e.g. 10 or 0.5), got "${v}"`);
  return v;
}

export function loadIndexerConfig(env: Env = process.env): IndexerConfig {
  const common = loadServiceConfig('indexer', env);
  const r = new EnvReader(env);
  const manifest = loadNetworkFacts(common);
  const pools = r.oneOf('INDEXER_POOLS', ['listed', 'all'], 'listed');
  const indexing = common.networks.map(({ network, rpcUrl, rpcUrls, maxRps }): NetworkIndexingConfig => {
    const info = NETWORK_INFO[network];
    const m = manifest.get(network);
    const given = m?.deployBlock ?? optionalInt(r, `START_BLOCK_${suffix(network)}`, 0);
    const startDays = optionalInt(r, `START_DAYS_${suffix(network)}`, 1);
    if (given !== undefined && startDays !== undefined)
      r.problems.push(
        `START_BLOCK_${suffix(network)} and START_DAYS_${suffix(network)} are both set; keep one (a block number, or the last N days)`,
      );
    return {
      network,
      rpcUrl,
      rpcUrls,
      fallbackRpcUrls: urlList(r, `RPC_FALLBACK_URLS_${suffix(network)}`),
      maxRps,
      startBlock: given ?? 0,
      startBlockGiven: given !== undefined,
      bootstrap: m?.deployBlock === undefined && (given !== undefined || startDays !== undefined),
      startDays,
      finalityDepth: r.int(`FINALITY_DEPTH_${suffix(network)}`, info.finalityDepth, 1),
      maxLogRange: r.int(`MAX_LOG_RANGE_${suffix(network)}`, info.maxLogRange, 1),
      pollMs: r.int('INDEXER_POLL_MS', Math.max(100, Math.min(250, Math.floor(info.blockTimeMs / 4))), 10, 60_000),
      listedTokens: m?.tokens ?? [],
      pools,
      poolFloorNative: decimalAmount(r, `INDEXER_POOL_FLOOR_${suffix(network)}`),
      wrappedNative: m?.wrappedNative,
    };
  });
  const cfg: IndexerConfig = {
    ...common,
    indexing,
    instanceId: r.string('INDEXER_INSTANCE_ID', `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`),
    leaseTtlMs: r.int('INDEXER_LEASE_TTL_MS', 15_000, 1_000, 600_000),
    prefetch: r.int('INDEXER_PREFETCH', 2, 1, 64),
    targetLogsPerRange: r.int('INDEXER_TARGET_LOGS', 25_000, 100, 1_000_000),
    initialLogRange: r.int('INDEXER_INITIAL_RANGE', 10, 1, 1_000_000),
    rangesPerBatch: r.int('INDEXER_BATCH_RANGES', 4, 1, 64),
    maxBatchLogs: r.int('INDEXER_BATCH_MAX_LOGS', 250_000, 1, 10_000_000),
    readyLagBlocks: r.int('INDEXER_READY_LAG_BLOCKS', 5, 0),
    eventsStream: r.string('INDEXER_EVENTS_STREAM', STREAMS.chain.name),
    eventsSubjectPrefix: r.string('INDEXER_EVENTS_PREFIX', 'chain'),
    publishEvents: r.oneOf('INDEXER_PUBLISH', ['true', 'false'], 'true') === 'true',
    rpcTimeoutMs: r.int('RPC_TIMEOUT_MS', 30_000, 100),
    logsWorker: r.oneOf('INDEXER_LOGS_WORKER', ['true', 'false'], 'true') === 'true',
    heldBalancePairs: r.int('INDEXER_HELD_BALANCE_PAIRS', 500_000, 1),
    refreshHeadMs: r.int('INDEXER_REFRESH_HEAD_MS', 15_000, 0),
  };
  r.done();
  return cfg;
}
