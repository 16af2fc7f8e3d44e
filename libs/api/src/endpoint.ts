import type { AccessClass } from './access';
import type { QuerySchema } from './schema/query';
import type { TSchema } from '@sinclair/typebox';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
 * One HTTP operation, declared once: the gateway registers the route, enforces the access class,
 * validates the query with `parseQuery`, and @fastify/swagger documents the route from the schema
 * `routeSchema` derives from this object.
 */
export interface EndpointDef<Q extends QuerySchema = QuerySchema, R extends TSchema = TSchema> {
  readonly method: HttpMethod;
  /** Fastify-style path; `:name` segments are path parameters */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  /** OpenAPI tag (group in the docs UI) */
  readonly tag: string;
  readonly access: AccessClass;
  readonly query: Q;
  /** a flat JSON body validated like a query (admin operations only; the public interface has none) */
  readonly body?: QuerySchema;
  /** path parameter name -> description */
  readonly pathParams?: Readonly<Record<string, string>>;
  /** the success body's schema (TypeBox); its static type is the handler's result */
  readonly response: R;
  /** media type of the success body (JSON unless said otherwise) */
  readonly contentType?: string;
  /** success status (200 unless said otherwise) */
  readonly status?: number;
  /** error statuses beyond the ones the access class implies (e.g. 404 on the status lookup) */
  readonly extraErrors?: readonly number[];
  /** top-level response properties that hold Token records (tier-dependent metrics fields) */
  readonly tokenLists?: readonly string[];
  readonly beta?: boolean;
  readonly deprecated?: boolean;
}

export function endpoint<Q extends QuerySchema, R extends TSchema>(def: EndpointDef<Q, R>): EndpointDef<Q, R> {
  return def;
}

/** The error statuses an endpoint can answer, from its access class and its own list. */
export function errorStatuses(def: EndpointDef): number[] {
  const out = new Set<number>([400]);
  // Trading is open without a key, but a key that is sent must be valid: 401 otherwise.
  if (def.access === 'data' || def.access === 'data-paid' || def.access === 'admin' || def.access === 'trading') out.add(401);
  if (def.access === 'data-paid' || def.access === 'admin') out.add(403);
  if (def.access === 'data' || def.access === 'data-paid' || def.access === 'trading') out.add(429);
  for (const s of def.extraErrors ?? []) out.add(s);
  for (const s of [500, 501, 503, 504]) out.add(s);
  return [...out].sort((a, b) => a - b);
}
