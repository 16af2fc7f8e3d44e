import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { NETWORKS } from '@tokensvc/domain';
import {
  endpointList,
  ENDPOINT_IDS,
  errorStatuses,
  TIER_POLICY,
  type Caller,
  type EndpointDef,
  type EndpointId,
  type DocumentSchema as JsonSchema,
  type TierPolicy,
} from '@tokensvc/api';
import { SAMPLE } from './fixtures';
import type { GatewayOptions } from '../src/gateway-options';
import { GatewayHarness } from './harness';

/**
 * Parameter fuzzing shared by the Jest test (param-fuzz.int-spec.ts) and the soak run
 * (`npm run bench -- fuzz`). Every parameter of every declared endpoint is taken from the
 * declarations (libs/api/src/endpoints), never listed by hand, so a new endpoint or parameter is
 * fuzzed the day it is declared.
 *
 * The gateway under test is the real Fastify app (auth, limits, validation, forwarding), with its
 * NATS backends absent: NATS_URL points at a port nobody listens on, so a request that passes
 * validation is forwarded and answered 503 "unavailable" at once. That is the cheapest setup that
 * still runs every check a hostile query meets, and it makes the expected 5xx exact: a 503 that
 * says a service is unavailable. Any other 5xx is a gateway defect.
 */

export interface FuzzTarget {
  readonly id: EndpointId;
  readonly def: EndpointDef;
  readonly param: string;
  readonly schema: JsonSchema;
}

/** Every (endpoint, parameter) pair the declarations hold. */
export function fuzzTargets(): FuzzTarget[] {
  return endpointList().flatMap(({ id, def }) =>
    Object.entries(def.query.params).map(([param, p]) => ({ id, def, param, schema: p.schema })),
  );
}

/** Endpoints without parameters still get hostile extra parameters. */
export const ENDPOINTS = endpointList();

const HOSTILE = [
  '',
  ' ',
  '%',
  '0',
  '-1',
  '-0',
  '1.5',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '1_000',
  '９',
  '٣',
  'true',
  'null',
  '[]',
  '{"$gt":""}',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '../../etc/passwd',
  '\u0000',
  '\u202e',
  '💥',
  '\ud800',
  'ethereum:0x',
  ':',
  String(2n ** 256n),
  `0x${'f'.repeat(64)}`,
  ',,,',
  'ethereum,,base',
  ' 10',
  'ethereum ',
  '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eb48',
  'ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eb48',
];

/** A value shaped by the parameter's declared schema (so validation is passed as often as bent), or a hostile one. */
function shaped(schema: JsonSchema): fc.Arbitrary<string> {
  const s = schema as JsonSchema & {
    type?: string;
    enum?: readonly string[];
    pattern?: string;
    minimum?: number;
    maximum?: number;
    items?: JsonSchema;
    maxItems?: number;
  };
  switch (s.type) {
    case 'integer':
      return fc.integer({ min: (s.minimum ?? -1e6) - 2, max: (s.maximum ?? 1e6) + 2 }).map(String);
    case 'number':
      return fc.oneof(
        fc.double({ min: (s.minimum ?? -1e6) - 1, max: (s.maximum ?? 1e6) + 1, noNaN: true }).map(String),
        fc.integer({ min: -5, max: 20 }).map(String),
      );
    case 'boolean':
      return fc.constantFrom('true', 'false', 'TRUE', '1');
    case 'array':
      return fc.array(shaped(s.items ?? {}), { minLength: 1, maxLength: Math.min(4, (s.maxItems ?? 4) + 1) }).map((xs) => xs.join(','));
    case 'string':
      if (s.enum)
        return fc.oneof(
          fc.constantFrom(...s.enum),
          fc.constantFrom(...s.enum).map((v) => v.toUpperCase()),
        );
      if (s.pattern?.startsWith('^[a-z0-9]+:0x'))
        return fc.tuple(fc.constantFrom(...NETWORKS, 'mars'), fc.stringMatching(/^[0-9a-fA-F]{40}$/)).map(([n, a]) => `${n}:0x${a}`);
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
      return fc.string({ maxLength: 40 });
    default:
      return fc.string({ maxLength: 40 });
  }
}

/** Any value for a parameter: shaped by its schema, hostile, random or very long. */
export function valueFor(schema: JsonSchema): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: shaped(schema) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('1', '0', 'a', '0x', '.1', ' '), fc.integer({ min: 100, max: 4000 }))
        .map(([u, n]) => u.repeat(n)),
    },
  );
}

const PLAIN: Record<string, string> = { '%20': '+', '%3A': ':', '%2F': '/', '%3D': '=', '%2C': ',', '%40': '@' };

/**
 * Query encoding that leaves the characters a query value may hold as they are (and a space as
 * `+`): a 16 kB run of `:` or `=` stays 16 kB of URL instead of 48 kB of escapes, which inject's
 * own URL parsing would otherwise be charged for in the CPU measured per request.
 */
const encode = (s: string): string => {
  try {
    return encodeURIComponent(s).replace(/%(?:20|3A|2F|3D|2C|40)/g, (e) => PLAIN[e]!);
  } catch {
    return escape(s); // lone surrogates
  }
};

export interface FuzzRequest {
  /** the declared endpoint the request is for */
  readonly id?: EndpointId;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  /** the client address; requests without a valid key come from many, so the failed-auth throttle (20 per client) answers few of them */
  readonly remoteAddress?: string;
}

/** The sample query of an endpoint with `param` replaced by `value` (or added when absent). */
export function withParam(id: EndpointId, param: string, value: string): string {
  const q = new URLSearchParams(SAMPLE[id].query);
  q.delete(param);
  return [...[...q].map(([k, v]) => `${encode(k)}=${encode(v)}`), `${encode(param)}=${encode(value)}`].join('&');
}

/**
 * One request: an endpoint, one of its declared parameters set to a fuzzed value over the valid
 * sample (so each parameter is reached past the others' validation), sometimes a second
 * parameter fuzzed or an unknown one added, with or without the key.
 */
export function requestArbitrary(key: string): fc.Arbitrary<FuzzRequest> {
  const targets = fuzzTargets();
  // One arbitrary per target, built once (building a pattern's arbitrary per draw costs ~10 ms).
  const withParams = fc.oneof(
    ...targets.map((t) =>
      fc.record({
        t: fc.constant(t),
        value: valueFor(t.schema),
        extra: fc.option(fc.tuple(fc.constantFrom(...Object.keys(t.def.query.params), 'x', '__proto__'), fc.string({ maxLength: 20 })), {
          freq: 4,
        }),
      }),
    ),
  );
  const bare = fc.record({
    t: fc.constantFrom(...ENDPOINTS.map(({ id, def }) => ({ id, def, param: '', schema: {} }))),
    value: fc.constant(''),
    extra: fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 20 })).map((x) => x as [string, string] | null),
  });
  return fc
    .tuple(
      fc.oneof({ weight: 9, arbitrary: withParams }, { weight: 1, arbitrary: bare }),
      fc.constantFrom<'key' | 'none' | 'bad'>('key', 'key', 'key', 'none', 'bad'),
      fc.integer({ min: 1, max: 65_000 }),
    )
    .map(([{ t, value, extra }, auth, client]) => {
      let query = t.param ? withParam(t.id, t.param, value) : SAMPLE[t.id].query;
      if (extra) query += `&${encode(extra[0])}=${encode(extra[1])}`;
      const headers: Record<string, string> =
        auth === 'key'
          ? { authorization: `Bearer ${key}` }
          : auth === 'bad'
            ? { authorization: 'Bearer tsk_live_00000000000000000000000000000000' }
            : {};
      const remoteAddress = auth === 'key' ? undefined : `198.18.${client >> 8}.${client & 255}`;
      return { id: t.id, method: t.def.method, url: `${t.def.path}?${query}`, headers, ...(remoteAddress ? { remoteAddress } : {}) };
    });
}

export interface Answer {
  readonly status: number;
  readonly body: string;
  readonly contentType: string | undefined;
  /** CPU time of the process while the request was served (user + system), ms */
  readonly cpuMs: number;
  readonly wallMs: number;
}

/** Sends one request through the app with inject (the real routing, hooks and handlers, no socket). */
export async function send(fastify: FastifyInstance, r: FuzzRequest): Promise<Answer> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const res = await fastify.inject({
    method: r.method as 'GET',
    url: r.url,
    headers: r.headers,
    ...(r.remoteAddress ? { remoteAddress: r.remoteAddress } : {}),
  });
  const c = process.cpuUsage(c0);
  return {
    status: res.statusCode,
    body: res.body,
    contentType: res.headers['content-type'] as string | undefined,
    cpuMs: (c.user + c.system) / 1000,
    wallMs: performance.now() - t0,
  };
}

/** The statuses the OpenAPI document declares for an endpoint (success and errors). */
export function declaredStatuses(def: EndpointDef): Set<number> {
  return new Set([def.status ?? 200, ...errorStatuses(def)]);
}

/** What is wrong with an answer, or undefined: no 5xx but the backends' 503, every 4xx a JSON error with a message. */
export function problemOf(a: Answer): string | undefined {
  if (a.status >= 500) {
    if (a.status === 503 && /unavailable/i.test(a.body)) return undefined;
    return `${a.status} ${a.body.slice(0, 200)}`;
  }
  if (a.status >= 400) {
    let body: { statusCode?: unknown; error?: unknown; message?: unknown };
    try {
      body = JSON.parse(a.body) as typeof body;
    } catch {
      return `${a.status} without a JSON body: ${a.body.slice(0, 200)}`;
    }
    if (body.statusCode !== a.status || typeof body.error !== 'string' || typeof body.message !== 'string' || body.message.length === 0)
      return `${a.status} without a proper error body: ${a.body.slice(0, 200)}`;
  }
  return undefined;
}

/**
 * 16 kB values built to make a pattern backtrack: long runs a greedy quantifier eats and then
 * rejects at the end, for each kind of pattern the schema uses (numbers, hex, addresses, token
 * keys, slugs, ids, cursors, URLs, dates, lists).
 */
export function adversarialValues(): string[] {
  const n = 16_000;
  return [
    '1'.repeat(n) + 'x',
    '1'.repeat(n) + '.',
    `${'1'.repeat(n / 2)}.${'1'.repeat(n / 2)}e`,
    '.'.repeat(n) + '1x',
    `0x${'a'.repeat(n)}`,
    `0x${'a'.repeat(n)}g`,
    `ethereum:0x${'a'.repeat(n)}`,
    `${'ethereum:'.repeat(n / 9)}x`,
    `a${'-'.repeat(n)}!`,
    `${'a:'.repeat(n / 2)}!`,
    `${'A='.repeat(n / 2)} `,
    `https://${'a'.repeat(n)} x`,
    `${'a'.repeat(n)}://`,
    `2024-01-01T${'1'.repeat(n)}`,
    `${'ethereum,'.repeat(n / 9)}x`,
    ' '.repeat(n) + 'x',
    `tsk_live_${'a'.repeat(n)}`,
  ];
}

/** Where the fuzzed gateway keeps its keys and limits, and a NATS URL nobody answers on (the backends are absent). */
export interface FuzzInfra {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly closedNatsUrl: string;
}

/**
 * A gateway for fuzzing: real Postgres and Redis (keys, limits), NATS absent, limits out of the way,
 * and a key. The caller (a test, or the bench runner) picks the infrastructure: this file belongs to
 * the gateway project, which may not import the testing harness outside test files.
 */
export async function startFuzzGateway(
  infra: FuzzInfra,
  extra: { listen?: boolean; options?: Partial<GatewayOptions> } = {},
): Promise<{ gw: GatewayHarness; key: string }> {
  const open: TierPolicy = { perMinute: { data: 1e9, trading: 1e9 }, monthlyCalls: undefined, paidData: true };
  const policy: Record<Caller, TierPolicy> = {
    ...TIER_POLICY,
    anonymous: { ...open, paidData: false, perMinute: { data: undefined, trading: 1e9 } },
    enterprise: open,
  };
  const gw = await GatewayHarness.start({
    infra: { databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, natsUrl: infra.closedNatsUrl },
    listen: extra.listen ?? false,
    // Keys stay cached for the run: a lookup's Postgres reply would land in some request's CPU window.
    options: { tierPolicy: policy, keyCacheTtlMs: 600_000, ...extra.options },
  });
  return { gw, key: (await gw.issue('enterprise')).key };
}

export { ENDPOINT_IDS };
