import { readFileSync, existsSync } from 'node:fs';
import { isNetwork, NETWORKS, type Network } from '@tokensvc/domain';
import { EnvReader, type Env } from './env';
import { readGatewayAccess, type GatewayAccessConfig } from './gateway-access';
import { readCors, readPublicUrls, type CorsConfig, type PublicUrlsConfig } from './public-urls';
import { readNatsUrl, readRedisUrl } from './urls';
import { redactUrl } from './redact-url';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Settings every app shares. */
export interface CommonConfig extends PublicUrlsConfig {
  readonly natsUrl: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly logLevel: LogLevel;
  /** Enabled networks and how to reach them. */
  readonly networks: readonly NetworkEndpoint[];
  /** Path of the devnet deployment manifest (addresses of the deployed protocol contracts), if any. */
  readonly devnetManifest: string | undefined;
  /**
   * REGISTRY: the real-network address book the indexer and quote read platforms, listed tokens and
   * the wrapped native token from when no devnet manifest is given: `shipped` (the registry shipped
   * in libs/chain, generated from the protocols' npm packages) or the path of a file of its shape.
   */
  readonly registry?: string;
  /** Port of the small HTTP server with liveness, readiness and metrics (microservices only). */
  readonly healthPort: number;
  /**
   * HEALTH_HOST: the address that server binds, loopback (`127.0.0.1`) by default like the
   * gateway's admin listener; `0.0.0.0` where probes and scrapers come from outside the process's
   * host (a Kubernetes pod, a compose network). Absent: 127.0.0.1.
   */
  readonly healthHost?: string;
  /**
   * JETSTREAM_REPLICAS (1..5, default 1): copies of each JetStream stream an app creates (CHAIN_EVENTS,
   * CROSS_CHAIN_STATUS); 3 on a 3-node NATS cluster. Applies when the stream is created.
   */
  readonly jetstreamReplicas?: number;
}

export interface NetworkEndpoint {
  readonly network: Network;
  /** the first of `rpcUrls` (for clients that take one URL, e.g. ethers providers) */
  readonly rpcUrl: string;
  /** RPC_URL_<NETWORK> as a comma-separated list: the JSON-RPC client fails over between them */
  readonly rpcUrls: readonly string[];
  /** RPC_MAX_RPS_<NETWORK>: requests per second per URL, per process (0 = no budget) */
  readonly maxRps: number;
}

export interface GatewayConfig extends CommonConfig, GatewayAccessConfig, CorsConfig {
  readonly host: string;
  readonly port: number;
  readonly natsRequestTimeoutMs: number;
}

/** Where the microservices' health and metrics listeners bind unless HEALTH_HOST says otherwise. */
export const DEFAULT_HEALTH_HOST = '127.0.0.1';

export const DEFAULT_HEALTH_PORTS = { 'token-data': 3101, indexer: 3102, quote: 3103, 'status-tracker': 3104 } as const;
export type ServiceWithHealthPort = keyof typeof DEFAULT_HEALTH_PORTS;

function readNetworks(r: EnvReader, env: Env): NetworkEndpoint[] {
  const list = r.optional('NETWORKS');
  if (list === undefined) {
    // Without NETWORKS, every network that has an RPC URL is enabled.
    return NETWORKS.filter((n) => env[rpcVar(n)]).map((n) => rpcEndpoint(r, n));
  }
  const out: NetworkEndpoint[] = [];
  for (const raw of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!isNetwork(raw)) {
      r.problems.push(`NETWORKS contains unknown network "${raw}"; accepted: ${NETWORKS.join(', ')}`);
      continue;
    }
    out.push(rpcEndpoint(r, raw));
  }
  return out;
}

/** RPC_URL_<NETWORK>: one URL, or several separated by commas (each checked; a list takes http(s) only). */
function rpcEndpoint(r: EnvReader, network: Network): NetworkEndpoint {
  const name = rpcVar(network);
  const maxRps = r.int(`RPC_MAX_RPS_${network.toUpperCase()}`, 0, 0, 100_000);
  const raw = r.string(name, '');
  const parts = raw.split(',').map((u) => u.trim());
  if (parts.length <= 1) {
    const rpcUrl = r.url(name, '', ['http:', 'https:', 'ws:', 'wss:']);
    return { network, rpcUrl, rpcUrls: [rpcUrl], maxRps };
  }
  for (const u of parts) {
    const protocol = URL.canParse(u) ? new URL(u).protocol : '';
    if (protocol !== 'http:' && protocol !== 'https:')
      r.problems.push(`${name} must be one URL or comma-separated http(s) URLs, got "${redactUrl(u)}"`);
  }
  return { network, rpcUrl: parts[0]!, rpcUrls: parts, maxRps };
}

export function rpcVar(network: Network): string {
  return `RPC_URL_${network.toUpperCase()}`;
}

function readCommon(r: EnvReader, env: Env, defaultHealthPort: number): CommonConfig {
  const manifest = r.optional('DEVNET_MANIFEST');
  if (manifest !== undefined && !existsSync(manifest))
    r.problems.push(`DEVNET_MANIFEST points to "${manifest}", which does not exist; run \`npm start\` or \`npm run devnet -- up\` first`);
  const registry = r.optional('REGISTRY');
  if (registry !== undefined && registry !== 'shipped' && !existsSync(registry))
    r.problems.push(`REGISTRY must be "shipped" or the path of a registry file; "${registry}" does not exist`);
  if (registry !== undefined && manifest !== undefined)
    r.problems.push(
      'REGISTRY and DEVNET_MANIFEST are exclusive: the devnet manifest is the address book of the devnet, the registry the one of real networks',
    );
  return {
    // credentials in the URL, or NATS_USER/NATS_PASSWORD and REDIS_PASSWORD (urls.ts)
    natsUrl: readNatsUrl(r),
    databaseUrl: r.url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/tokensvc', ['postgres:', 'postgresql:']),
    redisUrl: readRedisUrl(r),
    logLevel: r.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    networks: readNetworks(r, env),
    devnetManifest: manifest,
    ...(registry === undefined ? {} : { registry }),
    healthPort: r.int('HEALTH_PORT', defaultHealthPort, 0, 65535),
    healthHost: r.string('HEALTH_HOST', DEFAULT_HEALTH_HOST),
    jetstreamReplicas: r.int('JETSTREAM_REPLICAS', 1, 1, 5),
    ...readPublicUrls(r),
  };
}

export function loadServiceConfig(service: ServiceWithHealthPort, env: Env = process.env): CommonConfig {
  const r = new EnvReader(env);
  const cfg = readCommon(r, env, DEFAULT_HEALTH_PORTS[service]);
  r.done();
  return cfg;
}

export function loadGatewayConfig(env: Env = process.env): GatewayConfig {
  const r = new EnvReader(env);
  const common = readCommon(r, env, 0);
  const cfg: GatewayConfig = {
    ...common,
    host: r.string('HOST', '0.0.0.0'),
    port: r.int('PORT', 3000, 0, 65535),
    natsRequestTimeoutMs: r.int('NATS_REQUEST_TIMEOUT_MS', 5000, 50, 120_000),
    ...readGatewayAccess(r),
    ...readCors(r),
  };
  r.done();
  return cfg;
}

/** Reads a JSON file named by config (e.g. the devnet manifest); a clear error when unreadable. */
export function readJsonFile<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (e) {
    throw new Error(`cannot read JSON from ${path}: ${(e as Error).message}`);
  }
}
