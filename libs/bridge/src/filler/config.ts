/**
 * The filler process's settings, from the environment the apps use (DEVNET_MANIFEST, NETWORKS,
 * RPC_URL_<NETWORK>, LOG_LEVEL, NATS_URL) plus its own FILLER_* variables. Not loadServiceConfig:
 * the filler needs no database, queue or health port. NATS reaches the quote service, which builds
 * the destination swaps of deposits asking for a token the bridge does not carry.
 */
import { EnvReader, type Env, LOG_LEVELS, type LogLevel, readNatsUrl, rpcVar } from '@tokensvc/config';
import { NETWORKS, type Network, isNetwork } from '@tokensvc/domain';
import { FILLER_MODES, type FillerMode } from './filler';

export const FILLER_SWAP_SETTINGS = ['on', 'off'] as const;

export interface FillerConfig {
  manifestPath: string;
  rpcUrls: Partial<Record<Network, string>>;
  mode: FillerMode;
  pollMs: number;
  lookbackSeconds: number;
  logLevel: LogLevel;
  /** FILLER_PRIVATE_KEY; default: the manifest's filler account */
  privateKey: string | undefined;
  /** NATS_URL: the quote service's bus (destination swaps) */
  natsUrl: string;
  /** FILLER_SWAPS: on = destination swaps through the quote service; off = such deposits are left to the refund */
  swaps: (typeof FILLER_SWAP_SETTINGS)[number];
  /** FILLER_SWAP_SLIPPAGE: slippageTolerancePercentage of the filler's swap orders (0.1 to 10) */
  swapSlippagePercent: number;
  /** FILLER_QUOTE_TIMEOUT_MS: per request to the quote service */
  quoteTimeoutMs: number;
}

export function loadFillerConfig(env: Env = process.env): FillerConfig {
  const r = new EnvReader(env);
  const manifestPath = r.string('DEVNET_MANIFEST');
  const rpcUrls: Partial<Record<Network, string>> = {};
  const listed = r.optional('NETWORKS');
  // Like the apps: without NETWORKS, every network with an RPC URL.
  const names = listed === undefined ? NETWORKS.filter((n) => env[rpcVar(n)]) : listed.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) {
    if (!isNetwork(name)) {
      r.problems.push(`NETWORKS contains unknown network "${name}"; accepted: ${NETWORKS.join(', ')}`);
      continue;
    }
    rpcUrls[name] = r.url(rpcVar(name), '', ['http:', 'https:']);
  }
  if (names.length === 0) r.problems.push(`no networks: set NETWORKS and RPC_URL_<NETWORK>`);
  const key = r.optional('FILLER_PRIVATE_KEY');
  if (key !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(key)) r.problems.push('FILLER_PRIVATE_KEY must be a 32-byte hex key (0x + 64 hex digits)');
  const cfg: FillerConfig = {
    manifestPath,
    rpcUrls,
    mode: r.oneOf('FILLER_MODE', FILLER_MODES, 'normal'),
    pollMs: r.int('FILLER_POLL_MS', 500, 50, 60_000),
    lookbackSeconds: r.int('FILLER_LOOKBACK_SECONDS', 2_400, 60, 86_400 * 2),
    logLevel: r.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    privateKey: key,
    natsUrl: readNatsUrl(r),
    swaps: r.oneOf('FILLER_SWAPS', FILLER_SWAP_SETTINGS, 'on'),
    swapSlippagePercent: percent(r, env, 'FILLER_SWAP_SLIPPAGE', 0.5, 0.1, 10),
    quoteTimeoutMs: r.int('FILLER_QUOTE_TIMEOUT_MS', 10_000, 100, 120_000),
  };
  r.done();
  return cfg;
}

function percent(r: EnvReader, env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    r.problems.push(`${name} must be a number between ${min} and ${max} (percent), got "${raw}"`);
    return fallback;
  }
  return n;
}
