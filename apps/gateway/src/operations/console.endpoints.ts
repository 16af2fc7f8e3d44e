import { Type } from '@sinclair/typebox';
import { IndexingProgress, dateTime, endpoint, nullable, query } from '@tokensvc/api';

/** The console (a static front end) and the two read endpoints it adds to the gateway. */
const TAG = 'Console';

const consolePage = endpoint({
  method: 'GET',
  path: '/console',
  summary:
    'The console: a small web front end over this API (usage, indexing, tokens, orders); built by `npm run console:build`, 503 when not built',
  tag: TAG,
  access: 'public',
  query: query({}),
  response: Type.String(),
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
  response: Type.String(),
  contentType: 'application/octet-stream',
  extraErrors: [404],
});

const RateWindow = Type.Object({
  surface: Type.String({ description: 'data or trading' }),
  limit: Type.Integer({ description: 'admissions per window' }),
  remaining: Type.Integer(),
  windowSeconds: Type.Integer(),
  resetSeconds: Type.Integer({ description: 'seconds until the oldest counted call leaves the window' }),
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
  response: Type.Object({
    key: Type.Object({ id: Type.String({ format: 'uuid' }), displayPrefix: Type.String(), tier: Type.String() }),
    day: Type.String({ format: 'date', description: 'the UTC day counted as today' }),
    month: Type.String({ description: 'the quota period, YYYY-MM (UTC)' }),
    monthResetsAt: dateTime(),
    quota: Type.Object({
      limit: nullable(Type.Integer({ description: 'null: no monthly quota (enterprise)' })),
      used: Type.Integer(),
      remaining: nullable(Type.Integer()),
    }),
    rateLimits: Type.Array(RateWindow),
    endpoints: Type.Array(
      Type.Object({
        endpoint: Type.String({ description: 'method and route, e.g. GET /v2/tokens' }),
        today: Type.Integer(),
        month: Type.Integer(),
      }),
    ),
    days: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), calls: Type.Integer() })),
  }),
});

const indexingStatus = endpoint({
  method: 'GET',
  path: '/v3/indexing/status',
  summary: "Each network's indexing progress (head, cursor, lag, rates, ETA), read from the indexer's status port (INDEXER_STATUS_URL)",
  tag: TAG,
  access: 'data',
  query: query({}),
  response: Type.Object({
    readAt: dateTime(),
    networks: Type.Array(IndexingProgress),
  }),
});

export const CONSOLE_OPERATIONS = { consolePage, consoleAsset, keyUsage, indexingStatus } as const;
