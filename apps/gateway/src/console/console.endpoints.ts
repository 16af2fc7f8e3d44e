import { endpoint, query, s } from '@tokensvc/api';

/** The console (a static front end) and the two read endpoints it adds to the gateway. */
const TAG = 'Console';

const consolePage = endpoint({
  method: 'GET',
  path: '/console',
  summary: 'The console: a small web front end over this API (usage, indexing, tokens, orders); built by `npm run console:build`, 503 when not built',
  tag: TAG,
  access: 'public',
  query: query({}),
  response: s.string(),
  contentType: 'text/html',
  extraErrors: [404],
});

const consoleAsset = endpoint({
  method: 'GET',
  path: '/console/assets/:file',
  summary: "Static files of the console (the build's output folder, CONSOLE_DIR)",
  tag: TAG,
  access: 'public',
  pathParams: { file: 'file name' },
  query: query({}),
  response: s.string(),
  contentType: 'application/octet-stream',
  extraErrors: [404],
});

const RateWindow = s.object({
  surface: s.string({ description: 'data or trading' }),
  limit: s.integer({ description: 'admissions per window' }),
  remaining: s.integer(),
  windowSeconds: s.integer(),
  resetSeconds: s.integer({ description: 'seconds until the oldest counted call leaves the window' }),
});

const keyUsage = endpoint({
  method: 'GET',
  path: '/v3/portal/usage',
  summary: "The calling key's usage: calls today and this month per endpoint, the monthly quota, the rate-limit windows",
  description:
    'Key-scoped: it reports the key that calls it, and counts as one data call itself. Per-endpoint counts are written every few seconds (USAGE_FLUSH), ' +
    'the quota counter is the one the limiter spends (exact); `days` are the daily totals kept in Postgres.',
  tag: TAG,
  access: 'data',
  query: query({}),
  response: s.object({
    key: s.object({ id: s.string({ format: 'uuid' }), displayPrefix: s.string(), tier: s.string() }),
    day: s.string({ format: 'date', description: 'the UTC day counted as today' }),
    month: s.string({ description: 'the quota period, YYYY-MM (UTC)' }),
    monthResetsAt: s.dateTime(),
    quota: s.object({ limit: s.nullable(s.integer({ description: 'null: no monthly quota (enterprise)' })), used: s.integer(), remaining: s.nullable(s.integer()) }),
    rateLimits: s.array(RateWindow),
    endpoints: s.array(s.object({ endpoint: s.string({ description: 'method and route, e.g. GET /v2/tokens' }), today: s.integer(), month: s.integer() })),
    days: s.array(s.object({ day: s.string({ format: 'date' }), calls: s.integer() })),
  }),
});

const indexingStatus = endpoint({
  method: 'GET',
  path: '/v3/indexing/status',
  summary: "Each network's indexing progress (head, cursor, lag, rates, ETA), read from the indexer's status port (INDEXER_STATUS_URL)",
  tag: TAG,
  access: 'data',
  query: query({}),
  response: s.object({
    readAt: s.dateTime(),
    networks: s.array(
      s.object({
        network: s.string(),
        head: s.nullable(s.integer()),
        cursor: s.nullable(s.integer()),
        lag: s.nullable(s.integer()),
        blocksPerSecond: s.number(),
        eventsPerSecond: s.number(),
        etaSeconds: s.nullable(s.number()),
        percent: s.number(),
        caughtUp: s.boolean(),
      }),
    ),
  }),
});

export const CONSOLE_OPERATIONS = { consolePage, consoleAsset, keyUsage, indexingStatus } as const;
