/**
 * The one field list of the public Token record. The proto message `Token` (tokens.proto) is the
 * wire contract between token-data and the gateway; this list names the same fields in the same
 * order (the order of the public JSON), each with its kind. From it derive the response model
 * (TOKEN_PROPS in token.ts, so the OpenAPI document and the SDK types), token-data's body encoder
 * and the gateway's reply mapper. `token-fields.spec.ts` checks it against the proto and the
 * generated message, so a field added to one and not the other fails a test.
 */

/** What a field is in the public JSON, and so which proto type carries it (see the spec). */
export type TokenFieldKind =
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

/** The public Token record's fields, in the message's field order. */
export const TOKEN_FIELDS = {
  key: 'string', name: 'string', decimals: 'int32', symbol: 'string', address: 'string', addresses: 'stringMap', platform: 'string',
  network: 'string', price: 'double', images: 'strings', updatedAt: 'dateTime', createdAt: 'dateTime', verifiedAt: 'dateTime',
  tokens: 'strings', poolAddress: 'string', liquidity: 'double', metrics: 'metrics', metadata: 'stringMap', image: 'string',
  banner: 'string', customCmsImageUrl: 'string', totalSupply: 'string', totalBorrow: 'string', circulatingSupply: 'string',
  reserves: 'strings', pricePerShare: 'string', isClaimed: 'bool', isPortable: 'bool', historyFromBlock: 'blockOrNull',
} as const satisfies Record<string, TokenFieldKind>;

export type TokenField = keyof typeof TOKEN_FIELDS;

/** The names of TOKEN_FIELDS in their order. */
export const TOKEN_FIELD_NAMES = Object.keys(TOKEN_FIELDS) as readonly TokenField[];

/** Token metrics visible to every tier. */
export const PUBLIC_METRIC_FIELDS = ['apy', 'baseApy', 'rewardApy', 'borrowApy', 'baseBorrowApy', 'volumeUsd1d', 'volumeUsd7d'] as const;

/** Token metrics visible to the paid tier only (removed from token records for free keys); after the public ones in the message. */
export const PAID_METRIC_FIELDS = [
  'price1d', 'price7d', 'liquidity1d', 'liquidity7d', 'apy1d', 'apy7d', 'borrowApy1d', 'borrowApy7d',
  'liquidityDelta1d', 'liquidityDelta7d', 'priceDelta1d', 'priceDelta7d', 'apyDelta1d', 'apyDelta7d', 'borrowApyDelta1d', 'borrowApyDelta7d',
] as const;

export type PublicMetricField = (typeof PUBLIC_METRIC_FIELDS)[number];
export type PaidMetricField = (typeof PAID_METRIC_FIELDS)[number];
