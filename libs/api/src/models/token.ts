import { s, type Shape, type Static } from '../schema/shape';
import { BlockLabel } from './common';
import { PAID_METRIC_FIELDS, PUBLIC_METRIC_FIELDS, TOKEN_FIELDS, fieldNames, type FieldKind, type FieldList, type PaidMetricField, type PublicMetricField, type TokenField } from './record-fields';

export const TokenMetrics = s.named(
  'TokenMetrics',
  s.object(
    {
      ...(Object.fromEntries(PUBLIC_METRIC_FIELDS.map((f) => [f, s.string()])) as Record<PublicMetricField, ReturnType<typeof s.string>>),
      ...(Object.fromEntries(PAID_METRIC_FIELDS.map((f) => [f, s.optional(s.string({ description: 'paid tier only' }))])) as Record<PaidMetricField, ReturnType<typeof s.optional<string>>>),
    },
    { description: 'All values are strings. The paid-tier fields are absent for free keys.' },
  ),
);

type Doc = NonNullable<Parameters<typeof s.number>[0]>;

/** The schema of each field kind of the record field lists, given the field's documentation. */
const SHAPE_OF_KIND = {
  string: (doc: Doc) => s.string(doc),
  dateTime: (doc: Doc) => s.dateTime(doc),
  int32: (doc: Doc) => s.number(doc),
  double: (doc: Doc) => s.number(doc),
  bool: (doc: Doc) => s.boolean(doc),
  strings: (doc: Doc) => s.array(s.string(), doc),
  stringMap: (doc: Doc) => s.anyObject(doc),
  metrics: () => TokenMetrics,
  blockOrNull: (doc: Doc) => s.nullable(s.integer(doc)),
} satisfies Record<FieldKind, (doc: Doc) => Shape<unknown>>;

export type FieldProps<F extends FieldList> = { [K in keyof F]: ReturnType<(typeof SHAPE_OF_KIND)[F[K]]> };

/** The response-model properties of a field list, in its order; `docs` describes some of them. */
export function fieldProps<F extends FieldList>(fields: F, docs: Partial<Record<keyof F, Doc>> = {}): FieldProps<F> {
  return Object.fromEntries(fieldNames(fields).map((f) => [f, SHAPE_OF_KIND[fields[f] as FieldKind](docs[f] ?? {})])) as FieldProps<F>;
}

const TOKEN_FIELD_DOCS: Partial<Record<TokenField, Doc>> = {
  key: { description: '<network>:<address>, lowercase', example: 'ethereum:0x0000000000000000000000000000000000000000' },
  platform: { description: 'platform slug; `native` and `basic` for those token types' },
  network: { description: 'network enum' },
  price: { description: 'USD' },
  tokens: { description: 'underlying token addresses of a composed token' },
  liquidity: { description: 'USD TVL' },
  historyFromBlock: {
    description:
      "the first block whose events this token's balances, holders, activity and history include, when that is not the token's creation (its network was indexed from a later start block, or it was found or listed mid-history): balances and holders are then net transfers since this block, activity and history start there. null: indexed since its creation",
  },
};

const { historyFromBlock, ...RECORD_PROPS } = fieldProps(TOKEN_FIELDS, TOKEN_FIELD_DOCS);

/**
 * The fields of a token record (shared with the balance record, which adds three): TOKEN_FIELDS and
 * the record's block label, which the published spec lists before `historyFromBlock` (the JSON
 * writes it last).
 */
export const TOKEN_PROPS = { ...RECORD_PROPS, block: BlockLabel, historyFromBlock };

export const Token = s.named('Token', s.object(TOKEN_PROPS));
export type Token = Static<typeof Token>;

export const Balance = s.named(
  'Balance',
  s.object({ ...TOKEN_PROPS, balance: s.number(), balanceUSD: s.number(), rawBalance: s.string({ description: 'base units' }) }),
);
export type Balance = Static<typeof Balance>;

export const Platform = s.named('Platform', s.object({ platform: s.string(), name: s.string(), image: s.string(), network: s.string() }));
export type Platform = Static<typeof Platform>;
