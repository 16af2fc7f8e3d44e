/**
 * Every environment variable of the platform, its default and what it does: the one home of the
 * configuration's documentation. `npm run docs:gen` writes docs/configuration.md from it;
 * docs-drift.spec.ts fails when that file is out of date, when the code reads a variable that is
 * not here, or when a variable here is read nowhere (env-scan.ts finds what the code reads).
 * `<NETWORK>` is a network name in capitals (ETHEREUM, ARBITRUM, BASE, ...); `<APP>` an app's.
 */

export interface Variable {
  names: string[];
  default: string;
  /** who reads it, first in the row */
  usedBy: string;
  text: string;
  /** read by a library (the OpenTelemetry SDK), not by the project's code */
  library?: true;
}

export interface Section {
  title: string;
  intro: string;
  variables: Variable[];
}

export const SECTIONS: Section[] = [
  {
    title: 'Every app',
    intro:
      'Each app reads one validated, typed config at boot (`libs/config`, and its own `src/config/`); a bad value stops it with a message naming ' +
      'the variable and what is accepted. `npm start` and `npm run start:real` set the connection variables for you.',
    variables: [
      {
        names: ['DATABASE_URL'],
        default: '`postgres://postgres@127.0.0.1:5432/tokensvc` (created if missing)',
        usedBy: 'all',
        text:
          'every service pool bounds a statement to 30 s, an idle transaction to 60 s and the wait for a connection to 5 s ' +
          "(`libs/persistence/src/pg-pool.ts`; the indexer's batch pool 300 s / 60 s; migrations unbounded)",
      },
      { names: ['REDIS_URL'], default: '`redis://127.0.0.1:6379`', usedBy: 'gateway, quote (relay queue), status-tracker', text: '' },
      {
        names: ['REDIS_PASSWORD'],
        default: 'none',
        usedBy: 'the Redis users',
        text: 'folded into `REDIS_URL` unless it has one; required by the production manifests',
      },
      { names: ['NATS_URL'], default: '`nats://127.0.0.1:4222`', usedBy: 'all', text: '' },
      {
        names: ['NATS_USER', 'NATS_PASSWORD'],
        default: 'none (a bus without users)',
        usedBy: 'all',
        text:
          "the app's own NATS user, folded into `NATS_URL` unless it has `user:password@`; each user may use only its own subjects " +
          '(`libs/transport/src/nats-permissions.ts`, `deploy/README.md`); required by the production manifests, and with `REGISTRY` set an app ' +
          'refuses a NATS without users',
      },
      {
        names: ['JETSTREAM_REPLICAS'],
        default: '`1` (1 to 5)',
        usedBy: 'indexer (`CHAIN_EVENTS`), status-tracker and gateway (`CROSS_CHAIN_STATUS`)',
        text:
          'copies of a JetStream stream when the app creates it; `3` on a 3-node NATS cluster (an existing stream keeps its replicas: ' +
          '`nats stream edit <name> --replicas 3`; `deploy/README.md`)',
      },
      { names: ['NETWORKS'], default: 'every network with an `RPC_URL_*`', usedBy: 'all', text: 'the networks served, comma-separated' },
      {
        names: ['RPC_URL_<NETWORK>'],
        default: 'set by `npm start` to the devnet',
        usedBy: 'indexer, quote, token-data, status-tracker',
        text:
          'one URL, or several http(s) URLs comma-separated (e.g. two hosted providers and an own node). Every app reads through all of them with ' +
          'the same client (failover, health scoring, per-URL batch and log-range caps learned, 429 pauses; the indexer also never reads past the ' +
          'lowest head of the URLs within 16 blocks of the best; `apps/indexer/README.md`, "RPC URLs"). The relayer sends signed raw transactions ' +
          "through the same pool. Only ethers-based checks (the indexer's chain-id check at start) use the first URL alone",
      },
      {
        names: ['RPC_MAX_RPS_<NETWORK>'],
        default: '`0` (no budget)',
        usedBy: 'indexer, quote, token-data, status-tracker',
        text:
          "requests per second each process may send to each of the network's URLs (token bucket with a 1 s burst); set it to the provider " +
          "plan's rate so 429s stay rare (they are handled anyway)",
      },
      {
        names: ['DEVNET_MANIFEST'],
        default: 'set by `npm start` (`.devnet/deployment.json`)',
        usedBy: 'indexer (platform registry), quote, status-tracker (Across on the devnet)',
        text: 'the devnet deployment manifest: addresses of the deployed protocol contracts',
      },
      {
        names: ['REGISTRY'],
        default: 'unset (only the generic native/basic platforms without `DEVNET_MANIFEST`)',
        usedBy: 'indexer, quote',
        text:
          "the real-network address book. `shipped` = `libs/chain/src/registry/networks.registry.json`, generated from the protocols' npm " +
          'packages (`npm run registry:gen`; every address with its package, version and export path; `docs/registry.md`): platforms, listed ' +
          'tokens and wrapped native token of the enabled networks. Or the path of a JSON file of the same shape. Refused together with `DEVNET_MANIFEST`',
      },
      {
        names: ['LOG_LEVEL'],
        default: '`info` (`debug`, `warn`, `error`)',
        usedBy: 'all',
        text: 'JSON lines (pino) with `requestId`, `traceId`, `spanId`; secrets redacted (`docs/ONBOARDING.md`, "Logs and traces")',
      },
      {
        names: ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
        default: 'unset: no spans recorded or sent',
        usedBy: 'all',
        text:
          'OTLP/HTTP (JSON) trace export to this collector, e.g. `http://otel-collector:4318`; read by the OpenTelemetry SDK, as are ' +
          '`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_BSP_*`, `OTEL_TRACES_SAMPLER(_ARG)` (default parent-based always-on)',
      },
      {
        names: ['OTEL_TRACES_EXPORTER'],
        default: 'unset (`otlp` when an endpoint is set)',
        usedBy: 'all',
        text: '`otlp`, `console` (spans on stdout, for a look), `none` (off even with an endpoint)',
      },
      { names: ['OTEL_SDK_DISABLED'], default: 'unset', usedBy: 'all', text: '`true` turns tracing off' },
      {
        names: ['OTEL_SERVICE_NAME', 'OTEL_RESOURCE_ATTRIBUTES'],
        default: "the app's name (`gateway`, `token-data`, ...)",
        usedBy: 'all',
        text: "the traces' resource (read by the OpenTelemetry SDK)",
        library: true,
      },
      {
        names: ['HEALTH_PORT'],
        default: '3101 token-data, 3102 indexer, 3103 quote, 3104 status-tracker (0 = off)',
        usedBy: 'microservices',
        text: 'the small HTTP side door with `/health`, `/health/ready` and `/metrics`',
      },
      {
        names: ['HEALTH_HOST'],
        default: '`127.0.0.1`',
        usedBy: 'microservices',
        text: 'the address the health and metrics listener binds; `0.0.0.0` where probes or scrapers come from outside the host or container (compose, Kubernetes)',
      },
    ],
  },
  {
    title: 'gateway',
    intro: 'The public HTTP surface (`docs/gateway.md`).',
    variables: [
      { names: ['PORT', 'HOST'], default: '`3000`, `0.0.0.0`', usedBy: 'gateway', text: 'the public listener' },
      {
        names: ['NATS_REQUEST_TIMEOUT_MS'],
        default: '`5000`',
        usedBy: 'gateway',
        text: 'a request to a service that takes longer answers 504',
      },
      {
        names: ['ADMIN_TOKEN'],
        default: 'unset (admin API off)',
        usedBy: 'gateway',
        text: '`/admin/keys`; 32 characters or more, refused at boot otherwise',
      },
      {
        names: ['ADMIN_PORT', 'ADMIN_HOST'],
        default: '`3001`, `127.0.0.1`',
        usedBy: 'gateway',
        text: "the admin API's own listener, bound only with `ADMIN_TOKEN` (the public port answers 404 for `/admin`)",
      },
      {
        names: ['TRUSTED_PROXIES'],
        default: 'none (client IP = socket address)',
        usedBy: 'gateway',
        text: 'proxies (CIDRs or addresses, comma-separated) whose `X-Forwarded-For` is believed; the client is the right-most entry not in them',
      },
      {
        names: ['TRUST_PROXY_HOPS'],
        default: 'unset',
        usedBy: 'gateway',
        text: 'replaced by `TRUSTED_PROXIES`: refused at boot with a message saying so',
      },
      {
        names: ['CORS_ORIGINS'],
        default: 'empty (CORS off); `local` under `npm start`',
        usedBy: 'gateway',
        text:
          'origins browser apps may call from (comma-separated `scheme://host[:port]`, `local` for any port of `localhost`, `127.0.0.1` and ' +
          '`[::1]`, or `*` alone for any); preflights are answered before ' +
          'authentication and the `ratelimit-*`, `retry-after` and `x-request-id` headers are exposed',
      },
      {
        names: ['RATE_LIMIT_IPV6_PREFIX'],
        default: '`64`',
        usedBy: 'gateway',
        text: 'anonymous limits and the failed-auth throttle key IPv6 clients per prefix of this length (IPv4 per address)',
      },
      {
        names: ['CONSOLE_DIR', 'INDEXER_STATUS_URL'],
        default: '`dist/console`, `http://127.0.0.1:3102/status`',
        usedBy: 'gateway',
        text: "the console's build output (`npm run console:build`) served at `/console`; where the console's indexing page reads the indexer's progress",
      },
      {
        names: ['CONSOLE_SOURCE_MAPS'],
        default: '`false`',
        usedBy: 'gateway',
        text: "`true` serves the console bundles' source maps (debugging); off, as in production, a `.map` is a 404",
      },
      {
        names: ['SSE_MAX_STREAMS_PER_CLIENT', 'SSE_MAX_STREAMS', 'SSE_HEARTBEAT_MS', 'SSE_RESYNC_MS'],
        default: '`20`, `10000`, `15000`, `60000`',
        usedBy: 'gateway',
        text: '`/v3/portal/status/stream`: open streams per key or IP and in all per gateway, keep-alive comment, periodic re-read',
      },
      {
        names: ['STATUS_EVENTS_STREAM', 'STATUS_EVENTS_PREFIX'],
        default: '`CROSS_CHAIN_STATUS`, `cross-chain-status`',
        usedBy: 'gateway and status-tracker',
        text: 'the JetStream stream of status events; both must agree',
      },
    ],
  },
  {
    title: 'token-data',
    intro: 'Answers the data queries from the read models.',
    variables: [
      {
        names: ['PUBLIC_BASE_URL'],
        default: 'unset (relative URLs)',
        usedBy: 'token-data',
        text: 'the token image URLs the API returns (`/images/tokens/<network>/<address>.svg`, served by the gateway) are absolute under this base',
      },
      {
        names: ['IMAGE_CDN_BASE_URL'],
        default: 'unset',
        usedBy: 'token-data',
        text: "token image URLs point here instead (a CDN in front of the gateway's `/images/tokens/...`); wins over `PUBLIC_BASE_URL`",
      },
    ],
  },
  {
    title: 'indexer',
    intro: 'Follows each network and builds the read models (`apps/indexer/README.md`).',
    variables: [
      {
        names: ['START_BLOCK_<NETWORK>'],
        default: "the manifest's `history.deployBlock`, else this, else 0",
        usedBy: 'indexer',
        text: 'where indexing starts; the registry has no deploy block: on a real network set it (e.g. a recent block), or the whole chain is read',
      },
      {
        names: ['START_DAYS_<NETWORK>'],
        default: 'unset',
        usedBy: 'indexer',
        text:
          'without a start block: index the last N days (the first block at or after now − N days, found at start by a binary search over ' +
          'headers; used only when the network has no cursor yet). Refused together with `START_BLOCK_<NETWORK>`',
      },
      {
        names: ['INDEXER_POOLS'],
        default: '`listed`',
        usedBy: 'indexer',
        text:
          'which pools it registers. `listed`: only pools whose two tokens are both listed (and Aave aTokens of listed assets), from the ' +
          "factories' events and from the start-block bootstrap; `all`: every pool the configured factories create. The devnet lists every token " +
          'its pools use, so both give the same index there (`docs/real-networks.md`)',
      },
      {
        names: ['INDEXER_POOL_FLOOR_<NETWORK>'],
        default: 'unset (no floor)',
        usedBy: 'indexer',
        text:
          'at the start-block bootstrap, leave out pools whose reserves are worth less than this many whole wrapped-native tokens (e.g. `10` = ' +
          "10 WETH; each side at its spot price against the wrapped native, from that token's deepest bootstrapped pool with it; a pool with " +
          'neither side priced is kept). Pools created later start empty and are always registered',
      },
      {
        names: ['FINALITY_DEPTH_<NETWORK>', 'MAX_LOG_RANGE_<NETWORK>'],
        default: '`NETWORK_INFO` of the network (`libs/domain`)',
        usedBy: 'indexer',
        text: 'blocks below the head taken as final; the widest eth_getLogs range asked for',
      },
      {
        names: ['RPC_FALLBACK_URLS_<NETWORK>'],
        default: 'empty',
        usedBy: 'indexer',
        text:
          'more RPC URLs of the network, comma-separated, never read from: asked (with the `RPC_URL_<NETWORK>` URLs) only when the head is ' +
          'below the indexed data, so a node merely behind causes no rollback',
      },
      { names: ['RPC_TIMEOUT_MS'], default: '`30000`', usedBy: 'indexer', text: 'one JSON-RPC request' },
      {
        names: ['INDEXER_POLL_MS'],
        default: 'block time / 4, within 100..250 ms',
        usedBy: 'indexer',
        text: 'how often the head is polled',
      },
      { names: ['INDEXER_PREFETCH'], default: '`2`', usedBy: 'indexer', text: 'batches fetched ahead of the writer' },
      { names: ['INDEXER_TARGET_LOGS'], default: '`25000`', usedBy: 'indexer', text: 'logs aimed at per eth_getLogs request' },
      {
        names: ['INDEXER_INITIAL_RANGE'],
        default: '`10`',
        usedBy: 'indexer',
        text: 'blocks of the first eth_getLogs range, grown from there (a dense chain must not start with 200k-log responses)',
      },
      {
        names: ['INDEXER_BATCH_RANGES'],
        default: '`4`',
        usedBy: 'indexer',
        text: 'eth_getLogs ranges (read one after the other) per fetched batch: ~100k logs',
      },
      {
        names: ['INDEXER_BATCH_MAX_LOGS'],
        default: '`250000`',
        usedBy: 'indexer',
        text: 'while Postgres is busy, fetched batches gather in the next written batch up to this many logs (memory: up to three such batches)',
      },
      {
        names: ['INDEXER_HELD_BALANCE_PAIRS'],
        default: '`500000`',
        usedBy: 'indexer',
        text:
          'during a backfill, balance changes are held in memory and written when they reach this many (token, holder) pairs, with the batch ' +
          'that reaches the head, and before a stop',
      },
      {
        names: ['INDEXER_LOGS_WORKER'],
        default: '`true`',
        usedBy: 'indexer',
        text: "eth_getLogs requests are sent and their replies scanned in a worker thread (`false`: on the indexer's thread, same scanner)",
      },
      {
        names: ['INDEXER_LEASE_TTL_MS'],
        default: '`15000`',
        usedBy: 'indexer',
        text: 'a standby takes over at most this long after the leader dies; keep it well above the longest pause the leader may have (GC, CPU starvation)',
      },
      {
        names: ['INDEXER_INSTANCE_ID'],
        default: '`<hostname>:<pid>:<random>`',
        usedBy: 'indexer',
        text: 'this replica in the leader lease',
      },
      {
        names: ['INDEXER_READY_LAG_BLOCKS'],
        default: '`5`',
        usedBy: 'indexer',
        text: "`/health/caught-up`: every network's cursor within this of its head",
      },
      {
        names: ['INDEXER_EVENTS_STREAM', 'INDEXER_EVENTS_PREFIX', 'INDEXER_PUBLISH'],
        default: '`CHAIN_EVENTS`, `chain`, `true`',
        usedBy: 'indexer',
        text: 'the JetStream stream and subject prefix of pool changes and finalised blocks; `false` publishes nothing',
      },
      {
        names: ['INDEXER_REFRESH_HEAD_MS'],
        default: '`15000`',
        usedBy: 'indexer',
        text: 'once caught up, how often figures are re-derived at the head (0 = off)',
      },
    ],
  },
  {
    title: 'quote',
    intro: 'Builds orders and relays signed ones (`apps/quote/README.md`).',
    variables: [
      {
        names: ['ROUTER_ADDRESS_<NETWORK>'],
        default: 'from `DEVNET_MANIFEST` (`contracts.router`); else none',
        usedBy: 'quote',
        text:
          'the order Router (approval spender, `tx.to`) on that network. A network without one is still served for data, but its orders, ' +
          'estimates and approvals are refused with a 400 saying to run `npm run router -- deploy --network <name>` and set this variable; an ' +
          'address without code stops quote at start',
      },
      {
        names: ['WRAPPED_NATIVE_<NETWORK>'],
        default: 'from `DEVNET_MANIFEST` (`weth`), else from `REGISTRY`',
        usedBy: 'quote',
        text: 'WETH of the network: the calls of an order with native input or output wrap and unwrap through it (the Router itself names no WETH)',
      },
      {
        names: ['CROSS_CHAIN_BRIDGE'],
        default: '`across`',
        usedBy: 'quote, status-tracker',
        text:
          "the bridge of cross-chain orders. `across` = Across's SpokePools and MulticallHandlers from `DEVNET_MANIFEST`, else `REGISTRY` " +
          "(destination swaps and zaps ride on the deposit's message); when only the default cannot be served (fewer than two enabled networks " +
          'with Across) cross-chain orders are off and the reason is logged; when `across` is set explicitly the app refuses to start; `none` turns ' +
          'cross-chain orders off',
      },
      {
        names: ['ACROSS_RELAYER_FEE_BPS', 'ACROSS_LP_FEE_BPS', 'ACROSS_MIN_INPUT', 'ACROSS_FILL_DEADLINE_SECONDS'],
        default: '`4`, `1`, none, `14400`',
        usedBy: 'quote',
        text:
          "Across's configured fee model: relayer and LP fee in basis points of the input, the smallest input per bridged symbol as " +
          '`USDC=1000000,WETH=...`, the fill window',
      },
      {
        names: ['ACROSS_API_URL', 'ACROSS_API_KEY', 'ACROSS_API_TIMEOUT_MS'],
        default: 'none, none, `3000`',
        usedBy: 'quote',
        text: "Across's suggested-fees API (e.g. `https://app.across.to/api`), asked first when set; the configured figures when it fails",
      },
      {
        names: ['QUOTE_EVENTS_STREAM', 'QUOTE_EVENTS_PREFIX'],
        default: "`CHAIN_EVENTS`, `chain` (the indexer's pool events)",
        usedBy: 'quote',
        text: 'where the liquidity graph hears of pool changes',
      },
      {
        names: ['QUOTE_VALIDITY_SECONDS', 'QUOTE_GAS_PRICE_TTL_MS', 'QUOTE_CATALOG_REFRESH_MS'],
        default: '`1200`, `5000`, `30000`',
        usedBy: 'quote',
        text: 'order deadline, gas price cache, token/price re-read',
      },
      {
        names: ['RELAYER_PRIVATE_KEY_<NETWORK>'],
        default: "none (`npm start` sets the devnet manifest's `accounts.relayer`; `npm run devnet -- up` prints it)",
        usedBy: 'quote',
        text: 'the gas wallet that sends signed orders; a secret in production; never read from a manifest',
      },
      {
        names: ['RELAY_REPLACE_AFTER_MS', 'RELAY_FEE_BUMP_PERCENT', 'RELAY_GAS_BUFFER_PERCENT'],
        default: '`30000`, `15` (min 10), `20`',
        usedBy: 'quote',
        text: 'stuck-transaction replacement, gas limit buffer',
      },
      {
        names: ['RELAY_MAX_FEE_MULTIPLIER'],
        default: '`3` (1 to 100, decimals allowed)',
        usedBy: 'quote',
        text:
          "fee ceiling: no order transaction, first or bump, bids a `maxFeePerGas` above this many times the gas price the order's relayer fee " +
          'pays for its gas limit; a stuck order at the ceiling is not bumped further',
      },
      {
        names: ['RELAY_MAX_PENDING_PER_SENDER', 'RELAY_SUBMISSIONS_PER_CALLER_PER_MINUTE'],
        default: '`5`, `60`',
        usedBy: 'quote',
        text: 'abuse limits on `POST /v2/portal`',
      },
      {
        names: ['RELAY_SENDER_STRIKES', 'RELAY_SENDER_STRIKE_WINDOW_HOURS'],
        default: '`3`, `24`',
        usedBy: 'quote',
        text: 'a sender whose relayed orders failed on chain this many times within the window is not relayed for until it has passed: 429',
      },
      {
        names: ['ORDER_STORE_MAX_PER_ANONYMOUS_CLIENT', 'ORDER_STORE_MAX_PER_CLIENT'],
        default: '`200`, `2000`',
        usedBy: 'quote',
        text: 'stored orders kept per keyless client and per API key while neither submitted nor tracked; the oldest are evicted',
      },
      {
        names: ['RELAY_POLL_MS', 'RELAY_LOCK_MS', 'RELAY_QUEUE_PREFIX'],
        default: '`1000`, `15000`, `bull`',
        usedBy: 'quote',
        text: "BullMQ tracking: step interval, takeover of a dead worker's job, key prefix",
      },
      {
        names: ['RELAY_STUCK_AFTER_MS', 'RELAY_METRICS_INTERVAL_MS'],
        default: '`300000`, `15000`',
        usedBy: 'quote',
        text: 'metrics: a relayed order pending longer counts as stuck in `quote_relay_stuck`; how often the relayer gauges are sampled',
      },
    ],
  },
  {
    title: 'status-tracker',
    intro: 'Tracks cross-chain orders and pushes their status (`apps/status-tracker/README.md`).',
    variables: [
      {
        names: ['TRACKER_POLL_MS'],
        default: '`30000`',
        usedBy: 'status-tracker',
        text: 'safety net: pause between two looks at one ONGOING order (its events wake it sooner)',
      },
      {
        names: ['TRACKER_PENDING_POLL_MS'],
        default: 'min(5000, `TRACKER_POLL_MS`)',
        usedBy: 'status-tracker',
        text: "pause between two looks at a PENDING order's origin receipt",
      },
      {
        names: ['TRACKER_FOLLOW_MS'],
        default: '`1000`',
        usedBy: 'status-tracker',
        text: "pause between two reads of a network's bridge logs at the head",
      },
      {
        names: ['TRACKER_FOLLOW_CONFIRMATIONS'],
        default: '`0`',
        usedBy: 'status-tracker',
        text: 'logs are read this many blocks below the head',
      },
      {
        names: ['TRACKER_FOLLOW_START_BLOCKS'],
        default: '`0`',
        usedBy: 'status-tracker',
        text: 'a network followed for the first time is read from this many blocks below its head',
      },
      { names: ['TRACKER_LOCK_MS'], default: '`30000`', usedBy: 'status-tracker', text: "a dead worker's job is taken over after this" },
      {
        names: ['TRACKER_ORIGIN_NOT_FOUND_TIMEOUT_MS'],
        default: '`1800000`',
        usedBy: 'status-tracker',
        text: 'no origin receipt this long after the first request → FAILED',
      },
      { names: ['TRACKER_SWEEP_MS'], default: '`60000`', usedBy: 'status-tracker', text: 'open rows re-queued this often' },
      {
        names: ['TRACKER_CONCURRENCY'],
        default: '`50`',
        usedBy: 'status-tracker',
        text: 'tracking steps (polls) run at once per replica; no slot is held between steps',
      },
      { names: ['TRACKER_QUEUE_PREFIX'], default: '`bull`', usedBy: 'status-tracker', text: 'BullMQ key prefix' },
      {
        names: ['TRACKER_MAX_TXS_PER_ORDER'],
        default: '`4`',
        usedBy: 'status-tracker',
        text: 'tracking rows (origin transactions) one order id may have; a status request that would add one more is 409',
      },
      {
        names: ['WEBHOOK_ALLOWED_HOSTS'],
        default: 'empty (webhooks refused)',
        usedBy: 'status-tracker',
        text: 'hosts a webhook URL may name, comma-separated: `hooks.example.com`, `*.example.com` (subdomains), `*` (any public host)',
      },
      {
        names: ['WEBHOOK_ALLOW_HTTP_HOSTS', 'WEBHOOK_ALLOW_PRIVATE_HOSTS'],
        default: 'empty, empty',
        usedBy: 'status-tracker',
        text:
          'hosts reachable over plain http / allowed to resolve to private, loopback or link-local addresses. Off by default; tests set both to ' +
          '`127.0.0.1` for their loopback receiver',
      },
      {
        names: ['WEBHOOK_MAX_ATTEMPTS', 'WEBHOOK_BACKOFF_MS', 'WEBHOOK_TIMEOUT_MS'],
        default: '`8`, `30000`, `5000`',
        usedBy: 'status-tracker',
        text: 'attempts per event (retries after 30 s, 1, 2, 4 ... min: about 1 h in all), then the webhook is given up; per-attempt timeout',
      },
      {
        names: ['WEBHOOK_MAX_PER_ORDER', 'WEBHOOK_CONCURRENCY', 'WEBHOOK_SWEEP_MS'],
        default: '`10`, `50`, `10000`',
        usedBy: 'status-tracker',
        text: 'webhooks of one order over all its transactions and callers (409 beyond); deliveries at once; re-queue sweep',
      },
      {
        names: ['STATUS_RELAY_POLL_MS'],
        default: '`1000`',
        usedBy: 'status-tracker',
        text: "outbox relay; it also wakes on each transition's NOTIFY",
      },
    ],
  },
  {
    title: 'npm start, npm run start:real and the command-line tools',
    intro: 'Read by the scripts, not by the apps.',
    variables: [
      {
        names: ['DEVNET_BASE_PORT'],
        default: '`8545` (ethereum; arbitrum +1, base +2)',
        usedBy: '`npm start`, `npm run devnet`',
        text: "network i of the devnet's networks listens on base + i",
      },
      {
        names: ['DEVNET_STATE_DIR'],
        default: '`.devnet`',
        usedBy: '`npm start`',
        text: 'the folder of the devnet build, its kept chains (`live/`), the dev key and the permissioned NATS started here (`nats/`)',
      },
      {
        names: ['HEALTH_PORT_BASE'],
        default: 'unset (3101..3104)',
        usedBy: '`npm start`, `npm run start:real`',
        text: "the apps' health ports become base + 1..4 (`NETWORKS` chooses the devnet chains that run)",
      },
      {
        names: ['ACROSS_RELAYER_MODE'],
        default: '`normal`',
        usedBy: "`npm start`'s Across devnet relayer",
        text: '`offline`, `slow`, `partial-inventory` for failure tests (`libs/devnet/README.md`)',
      },
      {
        names: ['REAL_STATE_DIR'],
        default: '`.real`',
        usedBy: '`npm run start:real`',
        text: 'where it keeps its development key and the permissioned NATS it starts',
      },
      {
        names: ['DEPLOYER_PRIVATE_KEY'],
        default: 'none',
        usedBy: '`npm run router -- deploy`',
        text: "any funded account pays for the deployment (the Router's address does not depend on it; never printed)",
      },
      {
        names: ['TOKENSVC_NATS_PASSWORD_<APP>'],
        default: 'none',
        usedBy: 'the production NATS configuration (`deploy/`)',
        text: "each app user's password, referenced by the generated NATS server config (`deploy/README.md`)",
      },
      {
        names: ['TOKENSVC_URL', 'TOKENSVC_API_KEY', 'PRIVATE_KEY'],
        default: '`http://localhost:3000`, none, none',
        usedBy: '`examples/`',
        text: 'the gateway, the API key and the funded account the examples use (`examples/README.md`)',
      },
      {
        names: ['AMOUNT_WEI', 'AMOUNT', 'SLIPPAGE', 'NETWORK', 'FROM_NETWORK', 'TO_NETWORK', 'VAULT_PLATFORM'],
        default: "each example's own",
        usedBy: '`examples/`',
        text: "the first swap's amount, the others' (USDC base units), the signed order's slippage (percent), the networks, the vault's platform",
      },
    ],
  },
  {
    title: 'Tests and benchmarks',
    intro: 'Read by the test harness and `bench/`; the last ones are set by the harness itself.',
    variables: [
      {
        names: ['TEST_DEVNET_BASE_PORT'],
        default: '`18545`',
        usedBy: 'tests',
        text: "the shared test devnet's first port (private devnets sit at fixed offsets above it); move it when two runs share a machine",
      },
      {
        names: ['TEST_DATABASE_URL', 'TEST_REDIS_URL', 'TEST_NATS_URL'],
        default: "the machine's local Postgres, Redis and NATS",
        usedBy: 'tests',
        text: 'the servers tests create their databases, queues and streams on',
      },
      { names: ['ANVIL_BIN'], default: "the `@foundry-rs/anvil` package's binary", usedBy: 'devnets', text: 'another anvil' },
      { names: ['CHROMIUM_PATH'], default: '`/usr/bin/chromium`', usedBy: "the console's browser tests", text: '' },
      {
        names: ['REAL_DATA_DIR'],
        default: '`../shared/real-data`',
        usedBy: 'the real-data tests',
        text: 'recorded real chain data (`docs/real-data.md`)',
      },
      {
        names: ['GOLDEN_UPDATE', 'GOLDEN_RAW'],
        default: 'unset',
        usedBy: 'the golden check',
        text: '`1` re-records the answers; a file path also writes the unmasked answers (`docs/golden-check.md`)',
      },
      {
        names: ['STANDBY_TEST_LOG_DIR'],
        default: 'unset',
        usedBy: "the indexer's standby test",
        text: "a folder to keep the replicas' logs in",
      },
      {
        names: ['BENCH_DURATION_S', 'BENCH_ROUNDS', 'BENCH_QUERY_ITERATIONS', 'BENCH_INDEXER_NODE_ARGS'],
        default: '`8`, `2`, `50000`, none',
        usedBy: '`npm run bench`',
        text: 'seconds per target, alternating rounds, parameter-validation iterations, node flags of the indexer bench (`bench/README.md`)',
      },
      {
        names: ['TEST_DEVNET_RPC_URLS', 'TEST_DEVNET_MANIFEST', 'RPC_EMULATOR_OPTIONS', 'PONDER_BENCH_SPEC'],
        default: 'set by the harness',
        usedBy: 'tests and benchmarks',
        text: "the shared test devnet's URLs and manifest (Jest's global setup), the RPC emulator's and Ponder's options (the indexer bench)",
      },
      {
        names: ['FUZZ_DATABASE_URL', 'FUZZ_REDIS_URL', 'FUZZ_CLOSED_NATS_URL'],
        default: 'set by `npm run bench -- fuzz`',
        usedBy: "the gateway's fuzz soak",
        text: 'the scratch database and Redis it runs on, and a NATS URL nothing listens on (the services are absent on purpose)',
      },
    ],
  },
];
