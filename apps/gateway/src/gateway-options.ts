import { TIER_POLICY } from '@tokensvc/api';
import type { AccessOptions } from './access/access.module';
import { DEFAULT_KEY_CACHE_SIZES } from './access/key-store';
import type { ServedTable } from './api/served';
import type { ConsoleSettings } from './console/console-settings';
import { DEFAULT_SSE_SETTINGS, type SseSettings } from './sse/sse-settings';

/** Tuning that is not deployment config: defaults serve production, tests shorten windows and TTLs. */
export interface GatewayOptions extends AccessOptions {
  /** wrong or missing admin tokens per client address and window; past it the admin API answers 429 */
  readonly adminFailureLimit: number;
  /** handlers added over (or instead of) the built-in served table, e.g. a fake upstream in a test */
  readonly served: ServedTable;
  /**
   * false turns auth, limits and query validation off. It exists only so the overhead benchmark
   * can measure the same route with and without them in one run; never set it in a deployment.
   */
  readonly enforcement: boolean;
  /** the status stream (SSE): where the events come from, heartbeat, bounds (main.ts reads them from the environment) */
  readonly sse: SseSettings;
  /** the console's files and the indexer's status URL; undefined: read from CONSOLE_DIR and INDEXER_STATUS_URL */
  readonly console?: ConsoleSettings;
}

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  rateWindowMs: 60_000,
  tierPolicy: TIER_POLICY,
  keyCacheTtlMs: 5_000,
  keyCacheSizes: DEFAULT_KEY_CACHE_SIZES,
  failedAuthLimit: 20,
  adminFailureLimit: 10,
  usageFlushMs: 5_000,
  redisPrefix: 'tokensvc:gw',
  served: {},
  enforcement: true,
  sse: DEFAULT_SSE_SETTINGS,
};
