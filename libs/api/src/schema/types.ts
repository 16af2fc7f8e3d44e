import { Type, type SchemaOptions, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * The interface's schemas are TypeBox schemas (JSON Schema with a TypeScript type, `Static<typeof X>`);
 * @fastify/swagger turns them into the OpenAPI 3.0 document. TypeBox writes a few things in
 * JSON Schema forms OpenAPI 3.0 (and the SDK's generator) read badly: a string enum as `anyOf` of
 * consts, `null` as a type. These helpers write those in OpenAPI 3.0's own form, still as TypeBox
 * schemas with their static type.
 */

export type { Static, TSchema };

/** A string from a closed set: `{ type: 'string', enum }` (TypeBox's union of literals is an `anyOf`). */
export function stringEnum<const V extends readonly string[]>(values: V, options: SchemaOptions = {}): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
}

/** `T` or null, as OpenAPI 3.0 writes it: `nullable: true` beside the type (`allOf` around a reference). */
export function nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const inner = schema as TSchema & { $ref?: string };
  return Type.Unsafe<Static<T> | null>(inner.$ref ? { allOf: [{ $ref: inner.$ref }], nullable: true } : { ...inner, nullable: true });
}

/** An ISO 8601 date-time string. */
export const dateTime = (options: SchemaOptions = {}): TUnsafe<string> =>
  Type.Unsafe<string>({ type: 'string', format: 'date-time', ...options });

/** An object whose contents the spec leaves open. */
export const anyObject = (options: SchemaOptions = {}): TUnsafe<Record<string, unknown>> =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, ...options });

/** `{ [key: string]: T }` as OpenAPI 3.0 writes it (TypeBox's Record is a `patternProperties`). */
export function stringRecord<T extends TSchema>(value: T, options: SchemaOptions = {}): TUnsafe<Record<string, Static<T>>> {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value, ...options });
}

/** A union told apart by `propertyName` (OpenAPI `oneOf` with a discriminator). */
export function discriminated<const S extends readonly TSchema[]>(
  schemas: S,
  propertyName: string,
  options: SchemaOptions = {},
): TUnsafe<Static<S[number]>> {
  return Type.Unsafe<Static<S[number]>>({ oneOf: [...schemas], discriminator: { propertyName }, ...options });
}

const COMPONENTS = new Map<string, TSchema>();

/**
 * A named model: kept once as `components.schemas[name]` of the OpenAPI document (Fastify's
 * `addSchema`, with `$id` = name) and referenced everywhere else. Returns the reference, typed as
 * the model, so models compose by name as the document shows them.
 */
export function named<T extends TSchema>(name: string, schema: T): TUnsafe<Static<T>> {
  const known = COMPONENTS.get(name);
  if (known && JSON.stringify(known) !== JSON.stringify({ ...schema, $id: name }))
    throw new Error(`two different models are named ${name}`);
  COMPONENTS.set(name, { ...schema, $id: name });
  return Type.Unsafe<Static<T>>({ $ref: name });
}

/** Every named model, each with its `$id`: what `addSchema` takes. */
export function namedModels(): readonly TSchema[] {
  return [...COMPONENTS.values()];
}
