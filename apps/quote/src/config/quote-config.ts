import { addressBookName, loadNetworkFacts, loadPlatforms } from '@tokensvc/chain';
import { EnvReader, loadServiceConfig, type CommonConfig, type Env } from '@tokensvc/config';
import { NETWORK_INFO, isAddress, type Network } from '@tokensvc/domain';
import { STREAMS } from '@tokensvc/messages';
import { type AcrossBridgeConfig, CROSS_CHAIN_BRIDGES, type CrossChainBridge, acrossConfigOfApp } from '@tokensvc/bridge';
import { checkPlatformOptions } from '@tokensvc/protocols';

/** What the quote service needs to know about one network to build orders on it. */
export interface NetworkDeployment {
  readonly network: Network;
  readonly chainId: number;
  readonly rpcUrl: string;
  /** RPC_URL_<NETWORK>'s URLs: the JSON-RPC client fails over between them */
  readonly rpcUrls: readonly string[];
  /** RPC_MAX_RPS_<NETWORK>: requests per second per URL from this process (0 = none) */
  readonly maxRps: number;
  /**
   * the order Router (approval spender, tx.to); lowercase. Undefined when neither
   * ROUTER_ADDRESS_<NET> nor the address book (libs/chain) names one: the network's graph still loads, but
   * every order, estimate and approval on it is refused (routerMissingMessage).
   */
  readonly router: string | undefined;
  /** WETH-like wrapper of the native token; lowercase */
  readonly wrappedNative: string;
  /** platform slug -> contract addresses by role (lowercase), e.g. uniswap-v2 -> { router } */
  readonly platforms: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

/** How many orders a client keeps while neither submitted nor tracked (OrderStore evicts the oldest beyond). */
export interface OrderStoreBounds {
  /** orders of one API key */
  maxPerClient: number;
  /** orders of one anonymous client (an IPv4 address or an IPv6 /64) */
  maxPerAnonymousClient: number;
}

export const DEFAULT_ORDER_STORE_BOUNDS: OrderStoreBounds = { maxPerClient: 2_000, maxPerAnonymousClient: 200 };

export interface QuoteConfig extends CommonConfig {
  readonly deployments: readonly NetworkDeployment[];
  /** JetStream stream and subject prefix of the indexer's pool events */
  readonly eventsStream: string;
  readonly eventsSubjectPrefix: string;
  /** how long a built order stays valid (Router deadline, context.expiry) */
  readonly quoteValiditySeconds: number;
  readonly gasPriceTtlMs: number;
  /** token metadata and USD prices are re-read from Postgres this often (off the quote path) */
  readonly catalogRefreshMs: number;
  /**
   * ORDER_STORE_MAX_PER_CLIENT / ORDER_STORE_MAX_PER_ANONYMOUS_CLIENT: stored orders kept per API key
   * and per keyless client (IPv4 address or IPv6 /64) while neither submitted nor tracked; older
   * ones are evicted (OrderStore)
   */
  readonly orderStore: OrderStoreBounds;
  readonly relay: RelayConfig;
  /** CROSS_CHAIN_BRIDGE: which bridge cross-chain orders go through (default across) */
  readonly crossChainBridge: CrossChainBridge;
  /** Across's SpokePools on the enabled networks, when CROSS_CHAIN_BRIDGE=across (from the address book, libs/chain) */
  readonly across: AcrossBridgeConfig | undefined;
  /** why cross-chain orders are off, when they are (logged at start) */
  readonly crossChainDisabled: string | undefined;
  /** Across's fee model (ACROSS_*): the configured figures, and Across's suggested-fees API when ACROSS_API_URL is set */
  readonly acrossFees: AcrossFeeSettings;
}

/** ACROSS_RELAYER_FEE_BPS, ACROSS_LP_FEE_BPS, ACROSS_MIN_INPUT, ACROSS_FILL_DEADLINE_SECONDS, ACROSS_API_URL, ACROSS_API_KEY, ACROSS_API_TIMEOUT_MS. */
export interface AcrossFeeSettings {
  readonly relayerFeeBps: number;
  readonly lpFeeBps: number;
  /** smallest input per bridged symbol, in its base units (ACROSS_MIN_INPUT=USDC=1000000,WETH=...) */
  readonly minimumInput: Readonly<Record<string, bigint>>;
  readonly fillDeadlineSeconds: number;
  /** Across's API base (e.g. https://app.across.to/api): asked first, the configured figures when it fails */
  readonly apiUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly apiTimeoutMs: number;
}

/** The signed-order relayer (POST /v2/portal). */
export interface RelayConfig {
  /** gas wallet private key per network (RELAYER_PRIVATE_KEY_<NET>) */
  readonly wallets: ReadonlyMap<Network, string>;
  readonly replaceAfterMs: number;
  readonly feeBumpPercent: number;
  readonly gasBufferPercent: number;
  /** bids stay under this many times the gas price the order's relayer fee pays for */
  readonly maxFeeMultiplier: number;
  readonly maxPendingPerSender: number;
  /** RELAY_SENDER_STRIKES / RELAY_SENDER_STRIKE_WINDOW_HOURS: failed relayed orders after which a sender is not relayed for (RelayOptions) */
  readonly senderStrikes: number;
  readonly strikeWindowMs: number;
  readonly submissionsPerCallerPerMinute: number;
  readonly pollMs: number;
  readonly lockMs: number;
  readonly queuePrefix: string;
  /** a relayed order pending longer than this counts as stuck (quote_relay_stuck) */
  readonly stuckAfterMs: number;
  /** the relayer gauges (balance, pending, stuck, nonce gap) are sampled this often */
  readonly metricsIntervalMs: number;
}

/** A deployment whose network has a Router: what every order, estimate and approval needs. */
export type RoutedDeployment = NetworkDeployment & { readonly router: string };

/**
 * The refusal for a network without a Router: what to run and what to set. The deterministic
 * Router has one address on every network (no chain-specific constructor argument), so the value
 * to set is the one already set for any other real network once it is deployed on this one too.
 */
export function routerMissingMessage(network: Network): string {
  return (
    `no Router is configured for ${network}, so this service cannot build orders, estimates or approvals there: ` +
    `deploy it with \`npm run router -- deploy --network ${network}\` and set ROUTER_ADDRESS_${network.toUpperCase()} to the address it prints (the same on every network)`
  );
}

/** An optional 0x address variable: undefined when neither it nor the fallback is set. */
function optionalAddressVar(r: EnvReader, name: string, fallback: string | undefined): string | undefined {
  const v = r.optional(name) ?? fallback;
  if (v === undefined) return undefined;
  if (!isAddress(v)) {
    r.problems.push(`${name} must be a 0x address, got "${v}"`);
    return undefined;
  }
  return v.toLowerCase();
}

function addressVar(r: EnvReader, name: string, fallback: string | undefined, book: string): string {
  const v = r.optional(name) ?? fallback;
  if (v === undefined || !isAddress(v)) {
    r.problems.push(
      `${name} must be a 0x address${fallback === undefined ? ` (the address book names none: ${book})` : ''}, got "${v ?? ''}"`,
    );
    return '';
  }
  return v.toLowerCase();
}

/** A decimal number within [min, max] (EnvReader reads integers only). */
function decimalVar(r: EnvReader, name: string, fallback: number, min: number, max: number): number {
  const raw = r.optional(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || n < min || n > max) {
    r.problems.push(`${name} must be a number between ${min} and ${max}, got "${raw}"`);
    return fallback;
  }
  return n;
}

/** CROSS_CHAIN_BRIDGE=across (libs/bridge's acrossConfigOfApp); its problem joins the config's. */
function acrossConfig(r: EnvReader, common: CommonConfig): { config: AcrossBridgeConfig | undefined; disabled: string | undefined } {
  const { config, problem, disabled } = acrossConfigOfApp(common, r.optional('CROSS_CHAIN_BRIDGE') !== undefined);
  if (problem) r.problems.push(problem);
  return { config, disabled };
}

/** ACROSS_MIN_INPUT: `SYMBOL=units` pairs, comma-separated. */
function minimumInputVar(r: EnvReader, name: string): Record<string, bigint> {
  const raw = r.optional(name);
  const out: Record<string, bigint> = {};
  if (raw === undefined || raw.trim() === '') return out;
  for (const pair of raw.split(',')) {
    const m = /^\s*([A-Za-z0-9.]+)\s*=\s*(\d{1,78})\s*$/.exec(pair);
    if (!m) {
      r.problems.push(`${name} must be SYMBOL=units pairs separated by commas (e.g. USDC=1000000,WETH=300000000000000), got "${pair}"`);
      continue;
    }
    out[m[1]!] = BigInt(m[2]!);
  }
  return out;
}

function acrossFeeSettings(r: EnvReader): AcrossFeeSettings {
  const apiUrl = r.optional('ACROSS_API_URL');
  if (apiUrl !== undefined && !/^https?:\/\/\S+$/.test(apiUrl)) r.problems.push(`ACROSS_API_URL must be an http(s) URL, got "${apiUrl}"`);
  return {
    relayerFeeBps: r.int('ACROSS_RELAYER_FEE_BPS', 4, 0, 9_999),
    lpFeeBps: r.int('ACROSS_LP_FEE_BPS', 1, 0, 9_999),
    minimumInput: minimumInputVar(r, 'ACROSS_MIN_INPUT'),
    // below the SpokePools' 6-hour fillDeadlineBuffer
    fillDeadlineSeconds: r.int('ACROSS_FILL_DEADLINE_SECONDS', 4 * 3600, 60, 6 * 3600),
    apiUrl,
    apiKey: r.optional('ACROSS_API_KEY'),
    apiTimeoutMs: r.int('ACROSS_API_TIMEOUT_MS', 3_000, 100, 60_000),
  };
}

export function loadQuoteConfig(env: Env = process.env): QuoteConfig {
  const common = loadServiceConfig('quote', env);
  const r = new EnvReader(env);
  // Router, wrapped native and platforms: the address book (libs/chain), else none
  const facts = loadNetworkFacts(common);
  const book = addressBookName(common);
  const registry = loadPlatforms(
    common,
    common.networks.map((n) => n.network),
  );
  checkPlatformOptions(registry);
  const deployments = common.networks.map(({ network, rpcUrl, rpcUrls, maxRps }): NetworkDeployment => {
    const upper = network.toUpperCase();
    const platforms = new Map(registry.filter((p) => p.network === network).map((p) => [p.slug, p.addresses]));
    return {
      network,
      chainId: NETWORK_INFO[network].chainId,
      rpcUrl,
      rpcUrls,
      maxRps,
      router: optionalAddressVar(r, `ROUTER_ADDRESS_${upper}`, facts.get(network)?.router),
      wrappedNative: addressVar(r, `WRAPPED_NATIVE_${upper}`, facts.get(network)?.wrappedNative, book),
      platforms,
    };
  });
  // Gas wallets come from the environment only (a platform runner sets them; nothing reads keys from a file).
  const wallets = new Map<Network, string>();
  for (const { network } of common.networks) {
    const key = r.optional(`RELAYER_PRIVATE_KEY_${network.toUpperCase()}`);
    if (key === undefined) continue;
    if (!/^0x[0-9a-fA-F]{64}$/.test(key)) r.problems.push(`RELAYER_PRIVATE_KEY_${network.toUpperCase()} must be 0x + 64 hex characters`);
    else wallets.set(network, key);
  }
  const crossChainBridge = r.oneOf('CROSS_CHAIN_BRIDGE', CROSS_CHAIN_BRIDGES, 'across');
  const across =
    crossChainBridge === 'across'
      ? acrossConfig(r, common)
      : { config: undefined, disabled: 'cross-chain orders are off (CROSS_CHAIN_BRIDGE=none)' };
  const cfg: QuoteConfig = {
    ...common,
    deployments,
    eventsStream: r.string('QUOTE_EVENTS_STREAM', STREAMS.chain.name),
    eventsSubjectPrefix: r.string('QUOTE_EVENTS_PREFIX', 'chain'),
    quoteValiditySeconds: r.int('QUOTE_VALIDITY_SECONDS', 20 * 60, 30, 24 * 3600),
    gasPriceTtlMs: r.int('QUOTE_GAS_PRICE_TTL_MS', 5_000, 0, 600_000),
    catalogRefreshMs: r.int('QUOTE_CATALOG_REFRESH_MS', 30_000, 1_000, 3_600_000),
    orderStore: {
      maxPerClient: r.int('ORDER_STORE_MAX_PER_CLIENT', DEFAULT_ORDER_STORE_BOUNDS.maxPerClient, 1, 10_000_000),
      maxPerAnonymousClient: r.int('ORDER_STORE_MAX_PER_ANONYMOUS_CLIENT', DEFAULT_ORDER_STORE_BOUNDS.maxPerAnonymousClient, 1, 1_000_000),
    },
    crossChainBridge,
    across: across.config,
    crossChainDisabled: across.disabled,
    acrossFees: acrossFeeSettings(r),
    relay: {
      wallets,
      replaceAfterMs: r.int('RELAY_REPLACE_AFTER_MS', 30_000, 100, 3_600_000),
      feeBumpPercent: r.int('RELAY_FEE_BUMP_PERCENT', 15, 10, 200),
      gasBufferPercent: r.int('RELAY_GAS_BUFFER_PERCENT', 20, 0, 200),
      maxFeeMultiplier: decimalVar(r, 'RELAY_MAX_FEE_MULTIPLIER', 3, 1, 100),
      maxPendingPerSender: r.int('RELAY_MAX_PENDING_PER_SENDER', 5, 1, 1_000),
      senderStrikes: r.int('RELAY_SENDER_STRIKES', 3, 1, 1_000),
      strikeWindowMs: r.int('RELAY_SENDER_STRIKE_WINDOW_HOURS', 24, 1, 24 * 30) * 3_600_000,
      submissionsPerCallerPerMinute: r.int('RELAY_SUBMISSIONS_PER_CALLER_PER_MINUTE', 60, 1, 100_000),
      pollMs: r.int('RELAY_POLL_MS', 1_000, 10, 60_000),
      lockMs: r.int('RELAY_LOCK_MS', 15_000, 1_000, 600_000),
      queuePrefix: r.string('RELAY_QUEUE_PREFIX', 'bull'),
      stuckAfterMs: r.int('RELAY_STUCK_AFTER_MS', 300_000, 1_000, 86_400_000),
      metricsIntervalMs: r.int('RELAY_METRICS_INTERVAL_MS', 15_000, 100, 3_600_000),
    },
  };
  r.done();
  return cfg;
}
