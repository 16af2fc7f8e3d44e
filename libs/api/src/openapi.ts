import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { AccessClass } from './access';
import { errorStatuses, type EndpointDef } from './endpoint';
import { ErrorBody } from './models/common';
import type { QuerySchema } from './schema/query';
import { namedModels } from './schema/types';

/**
 * The OpenAPI document is written by @fastify/swagger from each route's Fastify schema. This file
 * derives that schema from an operation's declaration (`routeSchema`), and sets the plugin up
 * (`registerOpenApi`): the named models as shared schemas, the security schemes, and the two
 * things the plugin cannot take from a route schema (see `finishDocument`).
 */

/** A schema as the document shows it (enough for tests and the SDK generator to walk it). */
export interface DocumentSchema {
  type?: string;
  format?: string;
  description?: string;
  enum?: readonly (string | number | null)[];
  items?: DocumentSchema;
  properties?: Record<string, DocumentSchema>;
  required?: string[];
  additionalProperties?: boolean | DocumentSchema;
  nullable?: boolean;
  oneOf?: DocumentSchema[];
  allOf?: DocumentSchema[];
  discriminator?: { propertyName: string };
  $ref?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
}

/** The parts of an OpenAPI 3.0 document the service writes. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, DocumentSchema>; securitySchemes: Record<string, unknown>; headers?: Record<string, unknown> };
}

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  description?: string;
  schema: DocumentSchema;
  style?: 'form';
  explode?: boolean;
  deprecated?: boolean;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: DocumentSchema }> };
  security: Record<string, string[]>[];
  responses: Record<
    string,
    { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: DocumentSchema }> }
  >;
  deprecated?: boolean;
  'x-access': AccessClass;
  'x-beta'?: boolean;
}

const REASONS: Record<number, string> = {
  400: 'Bad request: a parameter is missing or invalid (the message names it and what is accepted)',
  401: 'Unauthorized: API key missing or wrong',
  403: 'Forbidden: the key lacks permission (e.g. a paid-tier endpoint on a free key)',
  404: 'Not found',
  429: 'Rate limit or monthly quota exceeded; honour retry-after',
  500: 'Internal error; the message carries a request id',
  501: 'Not served by this deployment yet',
  503: 'A backing service is unavailable; retry with backoff',
  504: 'A backing service did not answer in time; retry with backoff',
};

const SECURITY: Record<AccessClass, Record<string, string[]>[]> = {
  public: [],
  data: [{ authorization: [] }],
  'data-paid': [{ authorization: [] }],
  // `{}` first: the key is optional on trading calls.
  trading: [{}, { authorization: [] }],
  admin: [{ adminToken: [] }],
};

const RATE_HEADERS = {
  'ratelimit-limit': { type: 'integer', description: 'requests allowed per window' },
  'ratelimit-remaining': { type: 'integer', description: 'requests left in the current rolling window' },
  'ratelimit-reset': { type: 'integer', description: 'seconds until the oldest counted request leaves the window' },
  'ratelimit-policy': { type: 'string', description: '`<limit>;w=<window seconds>`' },
};
const RETRY_AFTER = { 'retry-after': { type: 'integer', description: 'seconds to wait before retrying' } };

/** Marks a list parameter's schema with how it is written; `finishDocument` turns it into `style`/`explode`. */
const LIST_STYLE = 'x-list-style';

/** The parameters of a query declaration as one object schema (what Fastify calls `querystring`, and a flat JSON body). */
function paramsObject(schema: QuerySchema, additionalProperties?: boolean): TSchema {
  const props: Record<string, TSchema> = {};
  for (const [name, p] of Object.entries(schema.params)) {
    const described: TSchema = { ...p.schema, description: [p.description, `Accepts ${p.accepts}.`].filter(Boolean).join(' ') };
    if (p.list) described[LIST_STYLE] = p.list.style;
    if (p.deprecated) described['deprecated'] = true;
    props[name] = p.presence === 'required' ? described : Type.Optional(described);
  }
  return Type.Object(props, additionalProperties === undefined ? {} : { additionalProperties });
}

/** The Fastify route schema of a declared operation: what @fastify/swagger documents. */
export function routeSchema(id: string, def: EndpointDef): FastifySchema & Record<string, unknown> {
  const limited = def.access === 'data' || def.access === 'data-paid' || def.access === 'trading';
  const headers = limited ? RATE_HEADERS : undefined;
  const response: Record<string, unknown> = {
    [String(def.status ?? 200)]: {
      description: 'Success',
      ...(headers ? { headers } : {}),
      content: { [def.contentType ?? 'application/json']: { schema: def.response } },
    },
  };
  for (const status of errorStatuses(def)) {
    response[String(status)] = {
      description: REASONS[status] ?? 'Error',
      ...(headers ? { headers: status === 429 ? { ...headers, ...RETRY_AFTER } : headers } : {}),
      content: { 'application/json': { schema: ErrorBody } },
    };
  }
  const pathParams = Object.entries(def.pathParams ?? {});
  return {
    operationId: id,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    tags: [def.tag],
    security: SECURITY[def.access],
    'x-access': def.access,
    ...(def.beta ? { 'x-beta': true } : {}),
    ...(def.deprecated ? { deprecated: true } : {}),
    ...(pathParams.length
      ? { params: Type.Object(Object.fromEntries(pathParams.map(([name, description]) => [name, Type.String({ description })]))) }
      : {}),
    querystring: paramsObject(def.query),
    ...(def.body ? { body: paramsObject(def.body, false) } : {}),
    response,
  };
}

const HEADERS: Record<string, { type: string; description: string }> = { ...RATE_HEADERS, ...RETRY_AFTER };

/**
 * What @fastify/swagger cannot take from a route schema: `style`/`explode` per query parameter
 * (it reads them from the whole querystring schema only), response headers as references to
 * `components.headers` (it writes each inline), and the document's tag list.
 */
function finishDocument(doc: OpenApiDocument): OpenApiDocument {
  const tags = new Set<string>();
  for (const ops of Object.values(doc.paths)) {
    for (const op of Object.values(ops)) {
      for (const tag of op.tags ?? []) tags.add(tag);
      for (const r of Object.values(op.responses)) {
        for (const name of Object.keys(r.headers ?? {}))
          if (Object.hasOwn(HEADERS, name)) r.headers![name] = { $ref: `#/components/headers/${name}` };
      }
      for (const p of op.parameters ?? []) {
        const style = (p.schema as Record<string, unknown>)[LIST_STYLE];
        if (style === undefined) continue;
        delete (p.schema as Record<string, unknown>)[LIST_STYLE];
        Object.assign(p, { style: 'form', explode: style !== 'comma' });
      }
    }
  }
  const headers = Object.fromEntries(
    Object.entries(HEADERS).map(([name, { type, description }]) => [name, { description, schema: { type } }]),
  );
  return { ...doc, tags: [...tags].map((name) => ({ name })), components: { ...doc.components, headers } };
}

/**
 * Sets @fastify/swagger up on an instance, before its routes are added: the named models become
 * shared schemas (`components.schemas`, by name), and the document is `fastify.swagger()` once the
 * instance is ready. Fastify compiles no validator or serializer from these schemas here: the
 * caller sets its compilers (the gateway validates with `parseQuery`).
 */
export async function registerOpenApi(fastify: FastifyInstance, info: OpenApiDocument['info']): Promise<void> {
  const { default: swagger } = await import('@fastify/swagger');
  for (const model of namedModels()) fastify.addSchema(model);
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info,
      components: {
        securitySchemes: {
          authorization: {
            type: 'apiKey',
            in: 'header',
            name: 'authorization',
            description: 'API key: `Bearer <API_KEY>` (the bare key is accepted too)',
          },
          adminToken: { type: 'http', scheme: 'bearer', description: 'the operator admin token (ADMIN_TOKEN)' },
        },
      },
    },
    // components.schemas keyed by the model's name (the plugin's default is def-<n>)
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json['$id'] === 'string' ? json['$id'] : `def-${i}`) },
    transformObject: (documentObject) =>
      finishDocument((documentObject as { openapiObject: unknown }).openapiObject as OpenApiDocument) as never,
  });
}

/** Fastify compiles nothing from the route schemas: they document; `parseQuery` validates. */
export function documentOnlyCompilers(fastify: FastifyInstance): void {
  fastify.setValidatorCompiler(() => () => true);
  fastify.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

/** The document of the given operations alone, from an instance that never listens (the SDK generator, tests). */
export async function openApiDocument(
  operations: readonly { id: string; def: EndpointDef }[],
  info: OpenApiDocument['info'],
): Promise<OpenApiDocument> {
  const { default: Fastify } = await import('fastify');
  const fastify = Fastify();
  documentOnlyCompilers(fastify);
  await registerOpenApi(fastify, info);
  for (const { id, def } of operations) {
    fastify.route({
      method: def.method,
      url: def.path,
      schema: routeSchema(id, def),
      handler: async (_req, reply) => reply.code(501).send(),
    });
  }
  await fastify.ready();
  const doc = fastify.swagger() as unknown as OpenApiDocument;
  await fastify.close();
  return doc;
}

/** Fastify `:name` path segments as OpenAPI `{name}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
