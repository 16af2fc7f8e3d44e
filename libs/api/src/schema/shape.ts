import { REF_PREFIX, type JsonSchema, type SchemaDefs } from './json-schema';

/**
 * Response shapes: each builder gives the JSON schema (for the OpenAPI document) and, through a
 * phantom type, the TypeScript type (`Static<typeof X>`), so the two can never drift apart.
 * Named shapes are emitted once under `components.schemas` and referenced with `$ref`.
 */
export interface Shape<T> {
  readonly schema: JsonSchema;
  /** named schemas this shape refers to, collected bottom-up */
  readonly defs: SchemaDefs;
  readonly optional?: boolean;
  /** phantom: never set at run time */
  readonly __type?: T;
}

export interface OptionalShape<T> extends Shape<T> {
  readonly optional: true;
}

export type Static<S> = S extends Shape<infer T> ? T : never;

type Props = Record<string, Shape<unknown>>;
type OptionalKeys<P extends Props> = { [K in keyof P]: P[K] extends OptionalShape<unknown> ? K : never }[keyof P];
type Simplify<T> = { [K in keyof T]: T[K] } & unknown;
export type ObjectOf<P extends Props> = Simplify<{ [K in Exclude<keyof P, OptionalKeys<P>>]: Static<P[K]> } & { [K in OptionalKeys<P>]?: Static<P[K]> }>;

function mergeDefs(shapes: readonly Shape<unknown>[]): SchemaDefs {
  return Object.assign({}, ...shapes.map((s) => s.defs)) as SchemaDefs;
}

function leaf<T>(schema: JsonSchema): Shape<T> {
  return { schema, defs: {} };
}

interface Doc {
  description?: string;
  example?: unknown;
}

export const s = {
  string: (doc: Doc & { format?: string } = {}): Shape<string> => leaf({ type: 'string', ...doc }),
  number: (doc: Doc = {}): Shape<number> => leaf({ type: 'number', ...doc }),
  integer: (doc: Doc = {}): Shape<number> => leaf({ type: 'integer', ...doc }),
  boolean: (doc: Doc = {}): Shape<boolean> => leaf({ type: 'boolean', ...doc }),
  dateTime: (doc: Doc = {}): Shape<string> => leaf({ type: 'string', format: 'date-time', ...doc }),
  literal: <const V extends readonly string[]>(values: V, doc: Doc = {}): Shape<V[number]> => leaf({ type: 'string', enum: values, ...doc }),
  /** an object whose contents the spec leaves open */
  anyObject: (doc: Doc = {}): Shape<Record<string, unknown>> => leaf({ type: 'object', additionalProperties: true, ...doc }),

  array: <T>(item: Shape<T>, doc: Doc = {}): Shape<T[]> => ({ schema: { type: 'array', items: item.schema, ...doc }, defs: item.defs }),

  object: <P extends Props>(props: P, doc: Doc = {}): Shape<ObjectOf<P>> => {
    const entries = Object.entries(props);
    const required = entries.filter(([, v]) => !v.optional).map(([k]) => k);
    const schema: JsonSchema = { type: 'object', properties: Object.fromEntries(entries.map(([k, v]) => [k, v.schema])), ...doc };
    if (required.length) schema.required = required;
    return { schema, defs: mergeDefs(Object.values(props)) };
  },

  /** `{ [key: string]: T }`, e.g. daily aggregates keyed by date */
  record: <T>(value: Shape<T>, doc: Doc = {}): Shape<Record<string, T>> => ({ schema: { type: 'object', additionalProperties: value.schema, ...doc }, defs: value.defs }),

  optional: <T>(shape: Shape<T>): OptionalShape<T> => ({ ...shape, optional: true }),

  nullable: <T>(shape: Shape<T>): Shape<T | null> => ({
    schema: shape.schema.$ref ? { allOf: [shape.schema], nullable: true } : { ...shape.schema, nullable: true },
    defs: shape.defs,
  }),

  /** a union told apart by `propertyName` (OpenAPI `oneOf` with a discriminator) */
  union: <S extends readonly Shape<unknown>[]>(shapes: S, propertyName: string): Shape<Static<S[number]>> => ({
    schema: { oneOf: shapes.map((x) => x.schema), discriminator: { propertyName } },
    defs: mergeDefs(shapes),
  }),

  /** emitted once as `components.schemas[name]`, referenced everywhere else */
  named: <T>(name: string, shape: Shape<T>): Shape<T> => ({
    schema: { $ref: `${REF_PREFIX}${name}` },
    defs: { ...shape.defs, [name]: shape.schema },
  }),
};
