import type { Pool } from 'pg';
import { createPgPool } from '@tokensvc/persistence';
import { loadManifestNetworks, loadPlatformRegistry } from '@tokensvc/chain';
import { NETWORK_INFO, type Network, type PlatformDefinition } from '@tokensvc/domain';
import type { NetworkIndexingConfig } from '../config/indexer-config';
import type { DerivationStage } from '../model/derivation.port';
import type { IndexerLogger } from '../model/indexer-logger';
import { NetworkIndexer } from '../pipeline/network-indexer';

export interface TestIndexerOptions {
  network: Network;
  /** which of the manifest's platforms the indexer is given (all by default) */
  platforms?: (p: PlatformDefinition) => boolean;
  rpcUrl: string;
  /** several URLs (the pool; rpcUrl is then ignored): see NetworkIndexingConfig.rpcUrls */
  rpcUrls?: string[];
  /** see NetworkIndexingConfig.maxRps */
  maxRps?: number;
  /** see NetworkIndexingConfig.fallbackRpcUrls */
  fallbackRpcUrls?: string[];
  databaseUrl: string;
  manifestPath: string;
  derive: DerivationStage;
  finalityDepth?: number;
  maxLogRange?: number;
  prefetch?: number;
  targetLogs?: number;
  /** see NetworkIndexerOptions (default 10) */
  initialLogRange?: number;
  /** eth_getLogs ranges per batch (default 2, so tests cover batches read in several requests) */
  rangesPerBatch?: number;
  onCommitted?: (network: Network) => void;
  logger?: IndexerLogger;
  leaseTtlMs?: number;
  instanceId?: string;
  /** see NetworkIndexerOptions */
  logsWorker?: boolean;
  heldBalancePairs?: number;
  /** see NetworkIndexerOptions (default 0: no head refresh) */
  refreshHeadMs?: number;
  /** see NetworkIndexerOptions */
  progressLogMs?: number;
  /** index from this block with the start-block bootstrap (as START_BLOCK_<NETWORK> does), instead of the manifest's deploy block */
  startBlock?: number;
  /** see NetworkIndexingConfig.pools (default listed) */
  pools?: NetworkIndexingConfig['pools'];
  /** see NetworkIndexingConfig.poolFloorNative */
  poolFloorNative?: string;
}

export interface TestIndexer {
  indexer: NetworkIndexer;
  pool: Pool;
  lines: unknown[];
  /** resolves once the cursor reached `block` (polls), rejects after `timeoutMs` */
  waitForCursor(block: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** One network's indexer in-process (as IndexerService wires it), for integration tests. */
export function startTestIndexer(o: TestIndexerOptions): TestIndexer {
  const manifest = loadManifestNetworks(o.manifestPath).get(o.network);
  const cfg: NetworkIndexingConfig = {
    network: o.network,
    rpcUrl: o.rpcUrls?.[0] ?? o.rpcUrl,
    rpcUrls: o.rpcUrls,
    maxRps: o.maxRps,
    fallbackRpcUrls: o.fallbackRpcUrls,
    startBlock: o.startBlock ?? manifest?.deployBlock ?? 0,
    bootstrap: o.startBlock !== undefined,
    pools: o.pools,
    poolFloorNative: o.poolFloorNative,
    wrappedNative: manifest?.wrappedNative,
    finalityDepth: o.finalityDepth ?? NETWORK_INFO[o.network].finalityDepth,
    maxLogRange: o.maxLogRange ?? NETWORK_INFO[o.network].maxLogRange,
    pollMs: 50,
    listedTokens: manifest?.tokens ?? [],
  };
  const pool = createPgPool({ connectionString: o.databaseUrl, max: 4 }, (m) => lines.push(m));
  const lines: unknown[] = [];
  const logger: IndexerLogger = o.logger ?? { log: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) };
  const indexer = new NetworkIndexer({
    cfg,
    pool,
    derive: o.derive,
    platforms: loadPlatformRegistry(o.manifestPath, [o.network]).filter(o.platforms ?? (() => true)),
    instanceId: o.instanceId ?? `test-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
    leaseTtlMs: o.leaseTtlMs ?? 5_000,
    prefetch: o.prefetch ?? 3,
    targetLogsPerRange: o.targetLogs ?? 20_000,
    initialLogRange: o.initialLogRange,
    rangesPerBatch: o.rangesPerBatch ?? 2,
    readyLagBlocks: 0,
    rpcTimeoutMs: 30_000,
    refreshHeadMs: o.refreshHeadMs ?? 0,
    logsWorker: o.logsWorker,
    heldBalancePairs: o.heldBalancePairs,
    progressLogMs: o.progressLogMs,
    logger,
    onCommitted: o.onCommitted,
  });
  indexer.start();
  return {
    indexer,
    pool,
    lines,
    async waitForCursor(block, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (indexer.cursorBlock < block) {
        if (Date.now() > deadline)
          throw new Error(`cursor at ${indexer.cursorBlock}, wanted ${block}; log: ${JSON.stringify(lines.slice(-5))}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      await indexer.stop();
      await pool.end();
    },
  };
}
