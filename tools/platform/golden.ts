/**
 * The golden check's pure parts (tools/platform/golden.e2e-spec.ts, docs/golden-check.md): the
 * masking of what legitimately varies between two runs of the same code on the same chain, the
 * golden file's format, and a readable comparison (request, JSON path, both values).
 *
 * Masking is narrow and named. Only two things vary, and only in trading answers:
 *   1. the order id, a fresh UUID per built order (`context.orderId`), and what is derived from it:
 *      the signed order's nonce (`signedOrder.value.nonce` = the UUID's 128 bits);
 *   2. wall-clock times: an order's deadline is the network's clock plus the quote validity, and
 *      the devnet's clock is idle in the past, so the wall clock wins; Across's quoteTimestamp and
 *      fillDeadline likewise. They reach `context.expiry`, `signedOrder.value.deadline`, words of
 *      `tx.data`, the text of cross-chain steps, and the route hash (keccak256 of executor calls
 *      that carry the deadline).
 * A time is recognised by its value, not by its place: a unix-seconds value, a decimal string of
 * one, an ISO date or a 32-byte word of calldata that lies in [run start - 10 min, run end + 6 h]
 * (the devnet's own times are days before the run). Every place a rule fired is recorded as a
 * path pattern, and the spec checks that set against the documented one, so a new wall-clock leak
 * fails the check instead of being masked silently.
 */

export const ORDER_ID = '<orderId>';
export const ORDER_NONCE = '<nonce=orderId>';
export const TIME = '<wall-clock-time>';
export const ROUTE_HASH = '<routeHash:calls-with-deadline>';

/** one request of the golden list and its answer */
export interface GoldenEntry {
  /** request kind, e.g. `tokens.history` (counts per kind are reported) */
  kind: string;
  method: 'GET' | 'POST';
  /** path and query string, as sent (the golden file's key) */
  path: string;
  status: number;
  body: unknown;
}

export interface GoldenFile {
  /** how the devnet was built (the chain the answers are a function of) */
  devnet: { buildTime: number; seed: string; networks: string[] };
  entries: GoldenEntry[];
}

/** The wall-clock window of a run, in unix seconds. */
export interface TimeWindow {
  from: number;
  to: number;
}

export function runWindow(startedMs: number, endedMs: number): TimeWindow {
  return { from: Math.floor(startedMs / 1000) - 600, to: Math.ceil(endedMs / 1000) + 6 * 3600 };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ISO_ANYWHERE = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/;
const ISO_IN_TEXT = new RegExp(ISO_ANYWHERE.source, 'g');
/** a 32-byte word holding a value of 8 hex digits without a leading zero (unix seconds 2^28 .. 2^32), at any offset (calls inside calls are 4 bytes off) */
const TIME_WORD = /0{56}([1-9a-f][0-9a-f]{7})/g;
const HEX = /^0x[0-9a-f]*$/i;

/**
 * Masks one answer in place of a copy: returns the masked body and records each JSON path pattern
 * (array indexes as `[]`, calldata words as `<word>`) a rule fired at, in `fired`.
 */
export function maskAnswer(body: unknown, window: TimeWindow, fired: Set<string>): unknown {
  const orderIds = new Set<string>();
  collectOrderIds(body, orderIds);
  const inWindow = (n: number): boolean => Number.isInteger(n) && n >= window.from && n <= window.to;

  const walk = (v: unknown, path: string, key: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, `${path}[]`, key));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = walk(x, path === '' ? k : `${path}.${k}`, k);
      return out;
    }
    if (typeof v === 'number') {
      if (inWindow(v)) return mark(path, TIME);
      return v;
    }
    if (typeof v !== 'string') return v;
    if (orderIds.has(v)) return mark(path, ORDER_ID);
    if (key === 'nonce' && /^\d+$/.test(v) && [...orderIds].some((id) => BigInt(`0x${id.replace(/-/g, '')}`).toString() === v))
      return mark(path, ORDER_NONCE);
    if (/^\d{9,10}$/.test(v) && inWindow(Number(v))) return mark(path, TIME);
    if (ISO.test(v) && inWindow(Math.floor(Date.parse(v) / 1000))) return mark(path, TIME);
    if (ISO_ANYWHERE.test(v)) {
      // a time inside a sentence (a cross-chain step names the fill deadline)
      let hit = false;
      const masked = v.replace(ISO_IN_TEXT, (iso: string) => {
        if (!inWindow(Math.floor(Date.parse(iso) / 1000))) return iso;
        hit = true;
        return TIME;
      });
      if (hit) fired.add(`${path}<text>`);
      return masked;
    }
    if (HEX.test(v) && v.length > 66) {
      // candidate words found without consuming: a word that is no time (a fee of 0x32, say) must
      // not swallow the leading zeros of the deadline word after it
      const hits: number[] = [];
      TIME_WORD.lastIndex = 0;
      for (let m = TIME_WORD.exec(v); m; m = TIME_WORD.exec(v)) {
        if (inWindow(parseInt(m[1]!, 16))) hits.push(m.index);
        else TIME_WORD.lastIndex = m.index + 57;
      }
      if (hits.length === 0) return v;
      fired.add(`${path}<word>`);
      let out = '';
      let at = 0;
      for (const h of hits) {
        out += v.slice(at, h) + `<${TIME}>`.padEnd(64, '~');
        at = h + 64;
      }
      return out + v.slice(at);
    }
    return v;
  };
  const mark = (path: string, placeholder: string): string => {
    fired.add(path);
    return placeholder;
  };
  return walk(body, '', '');
}

/**
 * The route hash hashes the executor calls, and the calls of a swap carry the order's deadline (V2
 * and V3 router deadlines, Across's fillDeadline): where the calldata had a time masked, the hash
 * is masked too (`context.routeHash`, `signedOrder.value.routeHash`). The calls themselves stay
 * compared in `tx.data`, word by word.
 */
export function maskRouteHash(masked: unknown, fired: Set<string>): unknown {
  if (masked === null || typeof masked !== 'object') return masked;
  const o = masked as { context?: Record<string, unknown>; tx?: { data?: unknown }; signedOrder?: { value?: Record<string, unknown> } };
  const data = o.tx?.data;
  if (typeof data !== 'string' || !data.includes(`<${TIME}>`)) return masked;
  if (o.context && typeof o.context['routeHash'] === 'string') {
    o.context['routeHash'] = ROUTE_HASH;
    fired.add('context.routeHash');
  }
  if (o.signedOrder?.value && typeof o.signedOrder.value['routeHash'] === 'string') {
    o.signedOrder.value['routeHash'] = ROUTE_HASH;
    fired.add('signedOrder.value.routeHash');
  }
  return masked;
}

function collectOrderIds(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) for (const x of v) collectOrderIds(x, out);
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (k === 'orderId' && typeof x === 'string' && UUID.test(x)) out.add(x);
      else collectOrderIds(x, out);
    }
  }
}

/**
 * The one tolerance: a simulated gas limit (`context.gasLimit`, `tx.gasLimit`) pays calldata gas for
 * the wall-clock deadline it carries (16 gas a non-zero byte, 4 a zero byte), so a deadline with a
 * zero byte (one second in 256) costs a few dozen gas less: seen 14 to 116 gas on 242k to 1.2M. Such
 * values are equal when within max(64, 0.02 %) of the golden one.
 */
export function gasWithinDeadlineSlack(path: string, golden: unknown, actual: unknown): boolean {
  if (
    !path.endsWith('.gasLimit') ||
    typeof golden !== 'string' ||
    typeof actual !== 'string' ||
    !/^\d+$/.test(golden) ||
    !/^\d+$/.test(actual)
  )
    return false;
  const g = Number(golden);
  return Math.abs(g - Number(actual)) <= Math.max(64, g * 0.0002);
}

/** One difference: where, and both values (shortened). */
export interface Difference {
  path: string;
  golden: string;
  actual: string;
}

const show = (v: unknown): string => {
  const s = v === undefined ? '(absent)' : JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 150)}... (${s.length} chars)` : s;
};

/** The first `max` differences between two JSON values, with their paths (`$` is the root). */
export function diffJson(golden: unknown, actual: unknown, max = 5, path = '$', out: Difference[] = []): Difference[] {
  if (out.length >= max) return out;
  if (Array.isArray(golden) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(golden.length, actual.length) && out.length < max; i++)
      diffJson(golden[i], actual[i], max, `${path}[${i}]`, out);
    return out;
  }
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(golden) && isObj(actual)) {
    const keys = [...new Set([...Object.keys(golden), ...Object.keys(actual)])];
    for (const k of keys) {
      if (out.length >= max) break;
      diffJson(golden[k], actual[k], max, `${path}.${k}`, out);
    }
    return out;
  }
  if (
    typeof golden === 'string' &&
    typeof actual === 'string' &&
    golden !== actual &&
    golden.startsWith('0x') &&
    actual.startsWith('0x') &&
    golden.length > 160
  ) {
    // calldata: the first differing 32-byte word, not the whole blob
    let i = 0;
    while (i < golden.length && golden[i] === actual[i]) i++;
    const at = Math.max(2, i - ((i - 2) % 64));
    out.push({
      path: `${path} (hex char ${i} of ${golden.length}/${actual.length})`,
      golden: golden.slice(at, at + 64),
      actual: actual.slice(at, at + 64),
    });
    return out;
  }
  if (JSON.stringify(golden) !== JSON.stringify(actual) && !gasWithinDeadlineSlack(path, golden, actual))
    out.push({ path, golden: show(golden), actual: show(actual) });
  return out;
}

/**
 * Compares the answers of a run with the golden file's: a readable report of the first
 * differences (request, status, JSON path, golden and actual values), or undefined when equal.
 */
export function compareGolden(
  golden: GoldenFile,
  actual: GoldenFile,
  o: { maxRequests?: number; maxPerRequest?: number } = {},
): string | undefined {
  const maxRequests = o.maxRequests ?? 12;
  const lines: string[] = [];
  let differing = 0;
  if (JSON.stringify(golden.devnet) !== JSON.stringify(actual.devnet))
    lines.push(`devnet differs: golden ${JSON.stringify(golden.devnet)}, actual ${JSON.stringify(actual.devnet)}`);
  const byPath = new Map(golden.entries.map((e) => [`${e.method} ${e.path}`, e]));
  const seen = new Set<string>();
  for (const a of actual.entries) {
    const key = `${a.method} ${a.path}`;
    seen.add(key);
    const g = byPath.get(key);
    if (!g) {
      differing++;
      if (differing <= maxRequests) lines.push(`+ ${key}: not in the golden file (answered ${a.status})`);
      continue;
    }
    const diffs =
      g.status !== a.status
        ? [{ path: 'status', golden: String(g.status), actual: String(a.status) }, ...diffJson(g.body, a.body, (o.maxPerRequest ?? 5) - 1)]
        : diffJson(g.body, a.body, o.maxPerRequest ?? 5);
    if (diffs.length === 0) continue;
    differing++;
    if (differing <= maxRequests) {
      lines.push(`~ [${a.kind}] ${key}`);
      for (const d of diffs) lines.push(`    ${d.path}\n      golden: ${d.golden}\n      actual: ${d.actual}`);
    }
  }
  for (const g of golden.entries) {
    const key = `${g.method} ${g.path}`;
    if (seen.has(key)) continue;
    differing++;
    if (differing <= maxRequests) lines.push(`- ${key}: in the golden file, not requested in this run`);
  }
  if (differing === 0 && lines.length === 0) return undefined;
  const more = differing > maxRequests ? `\n... and ${differing - maxRequests} more differing requests` : '';
  return `${differing} of ${actual.entries.length} requests differ from the golden file:\n${lines.join('\n')}${more}`;
}

/** The golden file's text: the header, then one answer per line (small diffs in review, greppable). */
export function formatGolden(f: GoldenFile): string {
  return `{"devnet":${JSON.stringify(f.devnet)},\n"entries":[\n${f.entries.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;
}
