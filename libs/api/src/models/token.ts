import { Type, type SchemaOptions, type TOptional, type TString } from '@sinclair/typebox';
import { anyObject, dateTime, named, nullable, type Static, type TSchema } from '../schema/types';
import { BlockLabel } from './common';
import {
  PAID_METRIC_FIELDS,
  PUBLIC_METRIC_FIELDS,
  TOKEN_FIELDS,
  fieldNames,
  type FieldKind,
  type FieldList,
  type PaidMetricField,
  type PublicMetricField,
  type TokenField,
} from './record-fields';

export const TokenMetrics = named(
  'TokenMetrics',
  Type.Object(
    {
      ...(Object.fromEntries(PUBLIC_METRIC_FIELDS.map((f) => [f, Type.String()])) as Record<PublicMetricField, TString>),
      ...(Object.fromEntries(PAID_METRIC_FIELDS.map((f) => [f, Type.Optional(Type.String({ description: 'paid tier only' }))])) as Record<
        PaidMetricField,
        TOptional<TString>
      >),
    },
    { description: 'All values are strings. The paid-tier fields are absent for free keys.' },
  ),
);

type Doc = SchemaOptions;

/** The schema of each field kind of the record field lists, given the field's documentation. */
const SHAPE_OF_KIND = {
  string: (doc: Doc) => Type.String(doc),
  dateTime: (doc: Doc) => dateTime(doc),
  int32: (doc: Doc) => Type.Number(doc),
  double: (doc: Doc) => Type.Number(doc),
  bool: (doc: Doc) => Type.Boolean(doc),
  strings: (doc: Doc) => Type.Array(Type.String(), doc),
  stringMap: (doc: Doc) => anyObject(doc),
  metrics: () => TokenMetrics,
  blockOrNull: (doc: Doc) => nullable(Type.Integer(doc)),
} satisfies Record<FieldKind, (doc: Doc) => TSchema>;

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

export const Token = named('Token', Type.Object(TOKEN_PROPS));
export type Token = Static<typeof Token>;

export const Balance = named(
  'Balance',
  Type.Object({
    ...TOKEN_PROPS,
    balance: Type.Number(),
    balanceUSD: Type.Number(),
    rawBalance: Type.String({ description: 'base units' }),
  }),
);
export type Balance = Static<typeof Balance>;

export const Platform = named(
  'Platform',
  Type.Object({ platform: Type.String(), name: Type.String(), image: Type.String(), network: Type.String() }),
);
export type Platform = Static<typeof Platform>;
