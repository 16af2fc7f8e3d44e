import type { AccessClass } from './access';
import { errorStatuses, type EndpointDef } from './endpoint';
import { ErrorBody } from './models/common';
import type { JsonSchema, SchemaDefs } from './schema/json-schema';
import type { QuerySchema } from './schema/query';

/** The parts of an OpenAPI 3.0 document this builder writes (enough for tests to walk it). */
export interface OpenApiDocument {
  openapi: '3.0.3';
  info: { title: string; version: string; description: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: SchemaDefs; securitySchemes: Record<string, unknown>; headers: Record<string, unknown> };
}

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  description: string;
  schema: JsonSchema;
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
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  security: Record<string, string[]>[];
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: JsonSchema }> }>;
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

const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'];
const ref = (name: string): { $ref: string } => ({ $ref: `#/components/headers/${name}` });

function queryParameters(schema: QuerySchema): OpenApiParameter[] {
  return Object.entries(schema.params).map(([name, p]) => {
    const out: OpenApiParameter = {
      name,
      in: 'query',
      required: p.presence === 'required',
      description: [p.description, `Accepts ${p.accepts}.`].filter(Boolean).join(' '),
      schema: p.schema,
    };
    if (p.list) Object.assign(out, { style: 'form', explode: p.list.style !== 'comma' });
    if (p.deprecated) out.deprecated = true;
    return out;
  });
}

function bodySchema(schema: QuerySchema): JsonSchema {
  const entries = Object.entries(schema.params);
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(entries.map(([n, p]) => [n, { ...p.schema, description: [p.description, `Accepts ${p.accepts}.`].filter(Boolean).join(' ') }])),
    required: entries.filter(([, p]) => p.presence === 'required').map(([n]) => n),
  };
}

function operation(id: string, def: EndpointDef): OpenApiOperation {
  const limited = def.access === 'data' || def.access === 'data-paid' || def.access === 'trading';
  const headers = limited ? Object.fromEntries(RATE_HEADERS.map((h) => [h, ref(h)])) : undefined;
  const responses: OpenApiOperation['responses'] = {
    [String(def.status ?? 200)]: { description: 'Success', ...(headers ? { headers } : {}), content: { [def.contentType ?? 'application/json']: { schema: def.response.schema } } },
  };
  for (const status of errorStatuses(def)) {
    responses[String(status)] = {
      description: REASONS[status] ?? 'Error',
      ...(headers ? { headers: status === 429 ? { ...headers, 'retry-after': ref('retry-after') } : headers } : {}),
      content: { 'application/json': { schema: ErrorBody.schema } },
    };
  }
  const pathParams: OpenApiParameter[] = Object.entries(def.pathParams ?? {}).map(([name, description]) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } }));
  const op: OpenApiOperation = {
    operationId: id,
    summary: def.summary,
    tags: [def.tag],
    parameters: [...pathParams, ...queryParameters(def.query)],
    security: SECURITY[def.access],
    responses,
    'x-access': def.access,
  };
  if (def.description) op.description = def.description;
  if (def.body) op.requestBody = { required: true, content: { 'application/json': { schema: bodySchema(def.body) } } };
  if (def.deprecated) op.deprecated = true;
  if (def.beta) op['x-beta'] = true;
  return op;
}

/** Fastify `:name` path segments as OpenAPI `{name}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The OpenAPI 3 document of the given operations, built from their declarations only. */
export function buildOpenApi(operations: readonly { id: string; def: EndpointDef }[], info: OpenApiDocument['info']): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const schemas: SchemaDefs = { ...ErrorBody.defs };
  for (const { id, def } of operations) {
    const path = openApiPath(def.path);
    paths[path] = { ...paths[path], [def.method.toLowerCase()]: operation(id, def) };
    Object.assign(schemas, def.response.defs);
  }
  const header = (description: string, type: 'integer' | 'string'): { description: string; schema: JsonSchema } => ({ description, schema: { type } });
  return {
    openapi: '3.0.3',
    info,
    tags: [...new Set(operations.map((o) => o.def.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        authorization: { type: 'apiKey', in: 'header', name: 'authorization', description: 'API key: `Bearer <API_KEY>` (the bare key is accepted too)' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'the operator admin token (ADMIN_TOKEN)' },
      },
      headers: {
        'ratelimit-limit': header('requests allowed per window', 'integer'),
        'ratelimit-remaining': header('requests left in the current rolling window', 'integer'),
        'ratelimit-reset': header('seconds until the oldest counted request leaves the window', 'integer'),
        'ratelimit-policy': header('`<limit>;w=<window seconds>`', 'string'),
        'retry-after': header('seconds to wait before retrying', 'integer'),
      },
    },
  };
}
