/**
 * The status tracker's settings: the common ones (NATS, Postgres, Redis, NETWORKS + RPC_URL_<NET>)
 * plus the bridge (CROSS_CHAIN_BRIDGE: Across from the address book, or none) and the
 * tracking rhythm.
 */
import { type AcrossBridgeConfig, CROSS_CHAIN_BRIDGES, type CrossChainBridge, acrossConfigOfApp } from '@tokensvc/bridge';
import { EnvReader, loadServiceConfig, type CommonConfig, type Env } from '@tokensvc/config';
import type { Network } from '@tokensvc/domain';

export interface TrackerConfig extends CommonConfig {
  /** CROSS_CHAIN_BRIDGE: the bridge whose deposits are followed (default across; none: nothing followed) */
  readonly crossChainBridge: CrossChainBridge;
  /** Across's SpokePools on the enabled networks (from the address book, libs/chain); none with CROSS_CHAIN_BRIDGE=none */
  readonly across: AcrossBridgeConfig;
  /** the enabled networks the chosen bridge is on: followed, and where status requests look for an order's transaction */
  readonly bridgeNetworks: readonly Network[];
  /** TRACKER_POLL_MS: safety net: pause between two looks at one ONGOING order's chains (its events wake it sooner) */
  readonly pollMs: number;
  /** TRACKER_PENDING_POLL_MS: pause between two looks at a PENDING order's origin receipt (a reverted one logs no event) */
  readonly pendingPollMs: number;
  /** TRACKER_FOLLOW_MS: pause between two reads of a network's new bridge logs once the follower is at the head */
  readonly followMs: number;
  /** TRACKER_FOLLOW_CONFIRMATIONS: the followers read logs only this many blocks below the head */
  readonly followConfirmations: number;
  /** TRACKER_FOLLOW_START_BLOCKS: a network followed for the first time is read from this many blocks below its head */
  readonly followStartBlocks: number;
  /** TRACKER_LOCK_MS: a job of a dead worker is taken over after this long */
  readonly lockMs: number;
  /** TRACKER_ORIGIN_NOT_FOUND_TIMEOUT_MS: no origin receipt this long after the first request -> FAILED */
  readonly originNotFoundTimeoutMs: number;
  /** TRACKER_SWEEP_MS: non-terminal rows are re-queued this often */
  readonly sweepMs: number;
  /** TRACKER_CONCURRENCY: tracking steps (safety-net polls) run at once per replica; a step is short, an order holds no slot between steps */
  readonly concurrency: number;
  /** TRACKER_QUEUE_PREFIX: BullMQ key prefix */
  readonly queuePrefix: string;
  /** TRACKER_MAX_TXS_PER_ORDER: tracking rows (origin transactions) one order id may have; a status request beyond it is 409 */
  readonly maxTxsPerOrder: number;
}

/** CROSS_CHAIN_BRIDGE=across (libs/bridge's acrossConfigOfApp); its problem joins the config's; none followed when only the default cannot be served. */
function acrossConfig(r: EnvReader, common: CommonConfig): AcrossBridgeConfig {
  const { config, problem } = acrossConfigOfApp(common, r.optional('CROSS_CHAIN_BRIDGE') !== undefined);
  if (problem) r.problems.push(problem);
  return config ?? { networks: [] };
}

/** `overrides.across`: an Across config of the tests' own (private anvils) instead of the address book's. */
export function loadTrackerConfig(env: Env = process.env, overrides: { across?: AcrossBridgeConfig } = {}): TrackerConfig {
  const common = loadServiceConfig('status-tracker', env);
  const r = new EnvReader(env);
  const crossChainBridge = r.oneOf('CROSS_CHAIN_BRIDGE', CROSS_CHAIN_BRIDGES, 'across');
  const enabled = new Set(common.networks.map((n) => n.network));
  const across: AcrossBridgeConfig =
    crossChainBridge === 'none'
      ? { networks: [] }
      : overrides.across
        ? { networks: overrides.across.networks.filter((n) => enabled.has(n.network)) }
        : acrossConfig(r, common);
  const bridgeNetworks = across.networks.filter((n) => enabled.has(n.network)).map((n) => n.network);
  const pollMs = r.int('TRACKER_POLL_MS', 30_000, 10, 600_000);
  const cfg: TrackerConfig = {
    ...common,
    crossChainBridge,
    across,
    bridgeNetworks,
    pollMs,
    pendingPollMs: r.int('TRACKER_PENDING_POLL_MS', Math.min(5_000, pollMs), 10, 600_000),
    followMs: r.int('TRACKER_FOLLOW_MS', 1_000, 10, 600_000),
    followConfirmations: r.int('TRACKER_FOLLOW_CONFIRMATIONS', 0, 0, 10_000),
    followStartBlocks: r.int('TRACKER_FOLLOW_START_BLOCKS', 0, 0, 10_000_000),
    lockMs: r.int('TRACKER_LOCK_MS', 30_000, 500, 3_600_000),
    originNotFoundTimeoutMs: r.int('TRACKER_ORIGIN_NOT_FOUND_TIMEOUT_MS', 30 * 60_000, 1_000, 7 * 24 * 3_600_000),
    sweepMs: r.int('TRACKER_SWEEP_MS', 60_000, 100, 3_600_000),
    concurrency: r.int('TRACKER_CONCURRENCY', 50, 1, 10_000),
    queuePrefix: r.string('TRACKER_QUEUE_PREFIX', 'bull'),
    maxTxsPerOrder: r.int('TRACKER_MAX_TXS_PER_ORDER', 4, 1, 100),
  };
  r.done();
  return cfg;
}
