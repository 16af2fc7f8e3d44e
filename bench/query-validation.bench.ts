/**
 * The query validator the gateway keeps (`parseQuery` over the declarations) next to Fastify's own
 * (Ajv with Fastify's options, compiled from the same TypeBox querystring schema that
 * @fastify/swagger documents), in the same run. Two figures: the time per query of each on the
 * same requests, and, case by case, where Ajv's answer differs from the interface's (what a switch
 * to Fastify's validator would change for clients). In-process, bounded in count; nothing listens.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ENDPOINTS, parseQuery, QueryError, routeSchema, type EndpointDef, type EndpointId } from '@tokensvc/api';

const USDC = 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = 'ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const SENDER = '0x1111111111111111111111111111111111111111';
const YEAR_AGO = (): string => String(Math.floor(Date.now() / 1000) - 400 * 86400);

interface Case {
  readonly what: string;
  readonly id: EndpointId;
  readonly query: Record<string, string | string[]>;
}

/** Typical requests (timed) and the edges the interface defines (compared). */
const TYPICAL: Case[] = [
  {
    what: 'token list, filters',
    id: 'listTokens',
    query: {
      networks: 'ethereum,base',
      platforms: 'uniswap-v2',
      limit: '50',
      page: '2',
      sortBy: 'liquidity',
      sortDirection: 'desc',
      minLiquidity: '1000',
    },
  },
  { what: 'token list, ids', id: 'listTokens', query: { ids: `${USDC},${WETH}` } },
  {
    what: 'order',
    id: 'portal',
    query: { sender: SENDER, inputToken: USDC, inputAmount: '1000000000', outputToken: WETH, slippageTolerancePercentage: '0.5' },
  },
  { what: 'account', id: 'account', query: { owner: SENDER, networks: ['ethereum', 'base'] } },
];

const EDGES: Case[] = [
  { what: 'comma list (ids=a,b) read as a list of two token keys', id: 'listTokens', query: { ids: `${USDC},${WETH}` } },
  { what: 'limit=1e3: not an integer as written', id: 'listTokens', query: { limit: '1e3' } },
  { what: 'limit=" 10": whitespace around a single value', id: 'listTokens', query: { limit: ' 10' } },
  { what: 'page without limit (a rule over two parameters)', id: 'listTokens', query: { page: '2' } },
  { what: 'minLiquidity above maxLiquidity', id: 'listTokens', query: { minLiquidity: '10', maxLiquidity: '5' } },
  { what: 'unknown parameter', id: 'listTokens', query: { foo: '1' } },
  {
    what: 'inputAmount 2^256 (78 digits, one above uint256)',
    id: 'portal',
    query: { sender: SENDER, inputToken: USDC, inputAmount: (2n ** 256n).toString(), outputToken: WETH },
  },
  {
    what: 'inputAmount 0 (must be positive)',
    id: 'portal',
    query: { sender: SENDER, inputToken: USDC, inputAmount: '0', outputToken: WETH },
  },
  {
    what: 'sender with a wrong EIP-55 checksum',
    id: 'portal',
    query: { sender: '0x1111111111111111111111111111111111111aBc', inputToken: USDC, inputAmount: '1', outputToken: WETH },
  },
  { what: 'the same token in and out', id: 'portal', query: { sender: SENDER, inputToken: USDC, inputAmount: '1', outputToken: USDC } },
  { what: 'history from more than a year ago', id: 'tokenHistory', query: { id: USDC, from: YEAR_AGO() } },
  { what: 'unknown network in a token key', id: 'tokenHistory', query: { id: 'mars:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' } },
];

/** Ajv as Fastify builds it by default (@fastify/ajv-compiler's options, with ajv-formats). */
function fastifyAjv(): Ajv {
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

function ourAnswer(def: EndpointDef, query: Case['query']): string {
  try {
    parseQuery(def.query, query);
    return 'accepted';
  } catch (e) {
    if (e instanceof QueryError) return `400 "${e.message.slice(0, 90)}"`;
    throw e;
  }
}

function timePerQuery(run: () => void, iterations: number): number {
  for (let i = 0; i < iterations / 10; i++) run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) run();
  return Number(process.hrtime.bigint() - start) / iterations / 1000;
}

export interface QueryValidationReport {
  readonly rows: { readonly what: string; readonly oursUs: number; readonly ajvUs: number; readonly ajvAccepts: boolean }[];
  readonly differences: { readonly what: string; readonly ours: string; readonly ajv: string }[];
  readonly edges: number;
}

export function runQueryValidationBench(iterations = Number(process.env['BENCH_QUERY_ITERATIONS'] ?? 50_000)): QueryValidationReport {
  const ajv = fastifyAjv();
  const compiled = new Map<EndpointId, ReturnType<Ajv['compile']>>();
  const validator = (id: EndpointId): ReturnType<Ajv['compile']> => {
    let v = compiled.get(id);
    if (!v) compiled.set(id, (v = ajv.compile(routeSchema(id, ENDPOINTS[id] as EndpointDef)['querystring'] as object)));
    return v;
  };
  // Ajv coerces in place: each call gets a fresh copy, as Fastify's query parser makes one per request.
  const rows = TYPICAL.map((c) => {
    const def = ENDPOINTS[c.id] as EndpointDef;
    const v = validator(c.id);
    return {
      what: c.what,
      oursUs: timePerQuery(() => parseQuery(def.query, { ...c.query }), iterations),
      ajvUs: timePerQuery(() => v({ ...c.query }), iterations),
      // a refusal stops at the first error, so a time is only comparable where Ajv accepts too
      ajvAccepts: v({ ...c.query }) === true,
    };
  });
  const differences = [];
  for (const c of EDGES) {
    const ours = ourAnswer(ENDPOINTS[c.id] as EndpointDef, c.query);
    const copy: Record<string, unknown> = structuredClone(c.query);
    const v = validator(c.id);
    const ajvAnswer = v(copy) ? `accepted as ${JSON.stringify(copy).slice(0, 90)}` : `400 "${ajv.errorsText(v.errors).slice(0, 90)}"`;
    const same = ours === 'accepted' ? ajvAnswer.startsWith('accepted') : ajvAnswer.startsWith('400');
    // A comma list Ajv does accept, as one string where the interface has two keys: a different answer too.
    if (!same || (c.query['ids'] !== undefined && !Array.isArray(copy['ids']))) differences.push({ what: c.what, ours, ajv: ajvAnswer });
    else if (Array.isArray(copy['ids']) && (copy['ids'] as unknown[]).length !== 2)
      differences.push({ what: c.what, ours, ajv: ajvAnswer });
  }
  return { rows, differences, edges: EDGES.length };
}

export function formatQueryValidationReport(r: QueryValidationReport): string {
  const lines = [
    ['query'.padEnd(24), 'parseQuery µs'.padStart(14), 'Ajv µs'.padStart(8), 'x (Ajv = 1)'.padStart(12), '  Ajv'].join(' '),
    ...r.rows.map((x) =>
      [
        x.what.padEnd(24),
        x.oursUs.toFixed(2).padStart(14),
        x.ajvUs.toFixed(2).padStart(8),
        (x.oursUs / x.ajvUs).toFixed(2).padStart(12),
        x.ajvAccepts ? '  accepts' : '  refuses (a valid request)',
      ].join(' '),
    ),
    '',
    `Fastify's validator answers differently from the interface on ${r.differences.length} of ${r.edges} defined edges:`,
    ...r.differences.map((d) => `- ${d.what}\n    interface: ${d.ours}\n    Ajv:       ${d.ajv}`),
  ];
  return lines.join('\n');
}
