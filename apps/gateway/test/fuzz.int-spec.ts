import fc from 'fast-check';
import { endpointList, ENDPOINT_IDS, ERROR_CODES, TIER_POLICY, type Caller, type TierPolicy } from '@tokensvc/api';
import { createTestDatabaseUrl, INFRA } from '@tokensvc/testing';
import type { ServedTable } from '../src/api/served';
import { SAMPLE } from './fixtures';
import { GatewayHarness } from './harness';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

/**
 * At least 10,000 malformed or hostile requests across every endpoint (wrong types, huge values,
 * injection strings, repeated and unknown parameters, bad token keys, unicode, broken
 * percent-encoding, odd auth headers): no answer may be a 5xx, every 4xx carries a message.
 * Every endpoint is given a stand-in handler, so a 5xx can only come from the gateway itself.
 */
const RUNS = 10_000;

const HOSTILE_VALUES = [
  '',
  ' ',
  '0',
  '-1',
  '-0',
  '1.5',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '0x10',
  '1_000',
  '９',
  '٣',
  '9'.repeat(400),
  '1'.repeat(80),
  'true',
  'TRUE',
  'null',
  'undefined',
  '[]',
  '{}',
  '{"$gt":""}',
  "' OR 1=1 --",
  '"; DROP TABLE api_keys; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\u202e',
  '💥',
  '\ud800',
  'a'.repeat(10_000),
  'ethereum:0x',
  'ethereum:0xZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ',
  'mars:0x0000000000000000000000000000000000000000',
  'ETHEREUM:0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48',
  'ethereum:0x0000000000000000000000000000000000000000:extra',
  ':',
  'ethereum',
  '0x',
  `0x${'f'.repeat(64)}`,
  `0x${'g'.repeat(130)}`,
  String(2n ** 256n),
  String(2n ** 256n - 1n),
  '1,2,3',
  ',,,',
  'ethereum,,base',
];
const HOSTILE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'a[b]',
  'limit[]',
  '',
  ' ',
  'LIMIT',
  'Limit',
  '💥',
  'x'.repeat(300),
  'page%00',
];

/** Valid values per parameter name, taken from the sample requests, so some fuzzed requests pass validation. */
const VALID = new Map<string, string[]>();
for (const id of ENDPOINT_IDS) {
  for (const [k, v] of new URLSearchParams(SAMPLE[id].query)) VALID.set(k, [...(VALID.get(k) ?? []), v]);
}

const value = (name: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_VALUES) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.integer({ min: -1e12, max: 1e12 }).map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
    {
      weight: 3,
      arbitrary: VALID.has(name) ? fc.constantFrom(...VALID.get(name)!) : fc.constantFrom('1', 'true', 'asc', 'ethereum', 'dex'),
    },
  );

const encode = (s: string): string => {
  try {
    return encodeURIComponent(s);
  } catch {
    return escape(s); // lone surrogates: legacy escaping still gives a URL
  }
};

const pair = (names: readonly string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: names.length ? fc.constantFrom(...names) : fc.constant('x') },
        { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_NAMES) },
        { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
      ),
      fc.boolean(),
    )
    .chain(([name, raw]) => value(name).map((v) => (raw ? `${name}=${v.replace(/[#\s]/g, '')}` : `${encode(name)}=${encode(v)}`)));

const AUTH = ['valid', 'valid-bare', 'none', 'garbage', 'long', 'bearer-empty'] as const;

const request = fc
  .record({
    endpoint: fc.constantFrom(...ENDPOINT_IDS.map((id) => ({ id, def: endpointList().find((e) => e.id === id)!.def }))),
    wrongMethod: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    auth: fc.oneof(
      { weight: 6, arbitrary: fc.constant<(typeof AUTH)[number]>('valid') },
      { weight: 4, arbitrary: fc.constantFrom(...AUTH) },
    ),
    // Half the requests start from a valid query and add hostile pairs, so validation is passed, bent and broken.
    fromSample: fc.boolean(),
    tail: fc.constantFrom('', '&', '&&', '%zz', '%', '=&=', '?', '#frag'),
  })
  .chain((r) =>
    fc.array(pair(Object.keys(r.endpoint.def.query.params)), { maxLength: r.fromSample ? 2 : 8 }).map((pairs) => ({
      ...r,
      query: [...(r.fromSample && SAMPLE[r.endpoint.id].query ? [SAMPLE[r.endpoint.id].query] : []), ...pairs].join('&') + r.tail,
    })),
  );

describe('gateway fuzz: hostile queries across every endpoint (real Redis, Postgres)', () => {
  let gw: GatewayHarness;
  let key: string;

  beforeAll(async () => {
    const open: TierPolicy = { perMinute: { data: 1e9, trading: 1e9 }, monthlyCalls: undefined, paidData: true };
    const policy: Record<Caller, TierPolicy> = {
      ...TIER_POLICY,
      anonymous: { ...open, paidData: false, perMinute: { data: undefined, trading: 1e9 } },
      enterprise: open,
    };
    const echo = async (q: object): Promise<unknown> => ({ received: Object.keys(q) });
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_fuzz'), redisUrl: INFRA.redis, natsUrl: INFRA.nats },
      listen: false,
      options: { tierPolicy: policy, served: Object.fromEntries(ENDPOINT_IDS.map((id) => [id, echo])) as ServedTable },
    });
    key = (await gw.issue('enterprise')).key;
  });

  afterAll(async () => {
    await gw?.close();
  });

  it(`answers ${RUNS} hostile requests without a 5xx, every 4xx with a message`, async () => {
    const fastify = gw.app.getHttpAdapter().getInstance();
    const statuses = new Map<number, number>();
    const headers = (auth: (typeof AUTH)[number]): Record<string, string> => {
      switch (auth) {
        case 'valid':
          return { authorization: `Bearer ${key}` };
        case 'valid-bare':
          return { authorization: key };
        case 'none':
          return {};
        case 'garbage':
          return { authorization: 'Bearer tsk_live_<script>' };
        case 'long':
          return { authorization: `Bearer ${'k'.repeat(8000)}` };
        case 'bearer-empty':
          return { authorization: 'Bearer ' };
      }
    };
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const { def } = r.endpoint;
        const method = r.wrongMethod ? (def.method === 'GET' ? 'DELETE' : 'PUT') : def.method;
        const res = await fastify.inject({ method, url: `${def.path}?${r.query}`, headers: headers(r.auth) });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 500)
          throw new Error(`${method} ${def.path}?${r.query.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 300)}`);
        if (res.statusCode >= 400) {
          const body = res.json() as { statusCode?: unknown; error?: unknown; message?: unknown; code?: unknown };
          if (
            body.statusCode !== res.statusCode ||
            typeof body.error !== 'string' ||
            typeof body.message !== 'string' ||
            body.message.length === 0 ||
            !(ERROR_CODES as readonly unknown[]).includes(body.code)
          ) {
            throw new Error(`${method} ${def.path}: ${res.statusCode} without a proper error body: ${res.body.slice(0, 300)}`);
          }
        }
      }),
      { numRuns: RUNS },
    );
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    process.stdout.write(`fuzz: ${total} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`);
    expect(total).toBeGreaterThanOrEqual(RUNS);
    // The mix reached both sides of validation.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(1000);
  }, 600_000);
});
