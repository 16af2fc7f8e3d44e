/**
 * The field lists of the public records that token-data and the gateway both write: Token (and so
 * Balance, which adds three) and HistoryEntry. The proto messages (tokens.proto) are the wire
 * contract between the two; each list names the message's fields in its order (the order of the
 * public JSON), each with its kind. From a list derive the response model (the OpenAPI document and
 * the SDK types: TOKEN_PROPS in token.ts, HistoryEntry in market.ts), token-data's body encoder
 * (response-body.ts) and the gateway's reply mapper (data-forwarding.ts). `record-fields.spec.ts`
 * checks the lists against the proto and the generated messages, so a field added to one and not
 * the other fails a test.
 */

/** What a field is in the public JSON, and so which proto type carries it (see the spec). */
export type FieldKind =
  | 'string'
  /** an ISO 8601 string */
  | 'dateTime'
  | 'int32'
  | 'double'
  | 'bool'
  /** a list of strings */
  | 'strings'
  /** an object of strings */
  | 'stringMap'
  /** the TokenMetrics record */
  | 'metrics'
  /** a block number as a JSON number, or null (an unset optional int64 on the wire) */
  | 'blockOrNull';

/** A record's fields in the message's field order, each with its kind. */
export type FieldList = Readonly<Record<string, FieldKind>>;

/** The names of a field list in their order. */
export const fieldNames = <F extends FieldList>(fields: F): readonly (keyof F & string)[] => Object.keys(fields);

/** How a writer of public records converts a value of each kind (a kind without one: the value as it is). */
export type FieldConverters<C> = Partial<Record<FieldKind, (value: unknown, context: C) => unknown>>;

/**
 * A writer of a field list's public record from its message: the list's fields in their order, each
 * through the converter of its kind, set one by one on a fresh object (the same keys in the same
 * order every time, so one object shape; not a spread of the message, which costs far more).
 */
export function recordWriter<M, C = undefined>(
  fields: FieldList,
  convert: FieldConverters<C>,
): (message: M, context: C) => Record<string, unknown> {
  const plan = fieldNames(fields).map((f) => [f, convert[fields[f]!]] as const);
  return (message, context) => {
    const m = message as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [f, c] of plan) out[f] = c ? c(m[f], context) : m[f];
    return out;
  };
}

/** The public Token record's fields (its block label comes after them in the JSON, from the reply's labels). */
export const TOKEN_FIELDS = {
  key: 'string',
  name: 'string',
  decimals: 'int32',
  symbol: 'string',
  address: 'string',
  addresses: 'stringMap',
  platform: 'string',
  network: 'string',
  price: 'double',
  images: 'strings',
  updatedAt: 'dateTime',
  createdAt: 'dateTime',
  verifiedAt: 'dateTime',
  tokens: 'strings',
  poolAddress: 'string',
  liquidity: 'double',
  metrics: 'metrics',
  metadata: 'stringMap',
  image: 'string',
  banner: 'string',
  customCmsImageUrl: 'string',
  totalSupply: 'string',
  totalBorrow: 'string',
  circulatingSupply: 'string',
  reserves: 'strings',
  pricePerShare: 'string',
  isClaimed: 'bool',
  isPortable: 'bool',
  historyFromBlock: 'blockOrNull',
} as const satisfies FieldList;

export type TokenField = keyof typeof TOKEN_FIELDS;
export const TOKEN_FIELD_NAMES = fieldNames(TOKEN_FIELDS);

/** The public HistoryEntry record's fields (one candle), before its block label (the message's last field). */
export const HISTORY_ENTRY_FIELDS = {
  time: 'dateTime',
  highPrice: 'string',
  lowPrice: 'string',
  openPrice: 'string',
  closePrice: 'string',
  liquidity: 'string',
  reserves: 'strings',
  totalSupply: 'string',
  totalBorrow: 'string',
  circulatingSupply: 'string',
  pricePerShare: 'string',
  volume1dUsd: 'string',
  apy: 'string',
  baseApy: 'string',
  rewardApy: 'string',
  borrowApy: 'string',
  baseBorrowApy: 'string',
  trendingScore: 'double',
} as const satisfies FieldList;

export const HISTORY_ENTRY_FIELD_NAMES = fieldNames(HISTORY_ENTRY_FIELDS);

/** Token metrics visible to every tier. */
export const PUBLIC_METRIC_FIELDS = ['apy', 'baseApy', 'rewardApy', 'borrowApy', 'baseBorrowApy', 'volumeUsd1d', 'volumeUsd7d'] as const;

/** Token metrics visible to the paid tier only (removed from token records for free keys); after the public ones in the message. */
export const PAID_METRIC_FIELDS = [
  'price1d',
  'price7d',
  'liquidity1d',
  'liquidity7d',
  'apy1d',
  'apy7d',
  'borrowApy1d',
  'borrowApy7d',
  'liquidityDelta1d',
  'liquidityDelta7d',
  'priceDelta1d',
  'priceDelta7d',
  'apyDelta1d',
  'apyDelta7d',
  'borrowApyDelta1d',
  'borrowApyDelta7d',
] as const;

export type PublicMetricField = (typeof PUBLIC_METRIC_FIELDS)[number];
export type PaidMetricField = (typeof PAID_METRIC_FIELDS)[number];
