import type { Pool } from 'pg';
import type { PlatformDefinition } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import type { NetworkIndexingConfig } from '../config/indexer-config';
import type { DerivationStage } from '../model/derivation.port';
import type { IndexerLogger } from '../model/indexer-logger';

export interface NetworkIndexerOptions {
  cfg: NetworkIndexingConfig;
  pool: Pool;
  derive: DerivationStage;
  platforms: readonly PlatformDefinition[];
  instanceId: string;
  leaseTtlMs: number;
  prefetch: number;
  targetLogsPerRange: number;
  /** first eth_getLogs range tried (blocks); grows from there. Default 10 */
  initialLogRange?: number;
  /** eth_getLogs ranges per fetched batch. Default 1 */
  rangesPerBatch?: number;
  /** while Postgres is busy, fetched batches gather in the next written batch up to this many logs. Default 250000 */
  maxBatchLogs?: number;
  readyLagBlocks: number;
  rpcTimeoutMs: number;
  /** eth_getLogs replies are read in a worker thread (default true) */
  logsWorker?: boolean;
  /** during a backfill, balance changes of at most this many (token, holder) pairs are held back in memory (default HELD_BALANCE_PAIRS) */
  heldBalancePairs?: number;
  /** how often (at most) the derivation stage's refreshHead runs once caught up; 0 = never */
  refreshHeadMs: number;
  logger: IndexerLogger;
  /** while more than readyLagBlocks behind, a progress line at most this often (ms; checked per committed batch). Default 5000 */
  progressLogMs?: number;
  /** called after each commit (and rollback): the publisher's cue */
  onCommitted?: (network: Network) => void;
}

/** default NetworkIndexerOptions.heldBalancePairs */
export const HELD_BALANCE_PAIRS = 500_000;
