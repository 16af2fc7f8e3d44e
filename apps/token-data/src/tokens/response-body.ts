import type {
  AccountReply,
  Balance,
  BlockLabel,
  HistoryEntry,
  ListTokensReply,
  Token,
  TokenHistoryReply,
  TokenMetrics,
} from '@tokensvc/messages';
import {
  HISTORY_ENTRY_FIELDS,
  PAID_METRIC_FIELDS,
  PUBLIC_METRIC_FIELDS,
  TOKEN_FIELDS,
  recordWriter,
  type FieldConverters,
} from '@tokensvc/api';
import type { BodyView } from '@tokensvc/transport';
import { labelJson } from '../finality/finality';

/**
 * The public HTTP bodies of GET /v2/account, /v2/tokens and /v2/tokens/history, encoded here so the
 * gateway can send them to the client as they are (see @tokensvc/transport reply-body.ts). They are
 * byte for byte what the gateway makes of the usual reply: the proto3 JSON of the reply decoded with
 * the generated codec, each Token laid out in the message's field order (TOKEN_FIELDS of @tokensvc/api) with `metrics` defaulted,
 * the paid-only metrics left out for the `free` view, the balance fields after the token's (history
 * entries as decoded; the endpoint is paid-only, so it has one view).
 * `response-body.spec.ts` checks that against that round trip, odd values included.
 *
 * Each Token's JSON is built once per Token object and view and kept beside it (WeakMap): the
 * account use case shares one Token object per row version across requests (TokenRecordCache) and
 * the reply cache keeps the list replies' tokens, so a reply is mostly a concatenation of fragments.
 * Fragments and bodies are Buffers: outside the V8 heap, no 100 kB+ strings in large-object space.
 * The block label of a record (issue 23) is per network and changes with every block, so it is not
 * part of the kept fragment: it is written after it (`,"block":{…}}` in place of the closing brace).
 */

type Fragments = { paid?: Buffer; free?: Buffer };
const FRAGMENTS = new WeakMap<Token, Fragments>();
const EMPTY_TOKEN = {} as Token;
const EMPTY_METRICS = {} as TokenMetrics;

// The proto3 JSON round trip (toJSON, JSON text, fromJSON) of each field type, written out.
// Values of the declared type pass through as they are; anything else goes the long way.
/** a value that is not of its declared type, as the JSON text gives it back (null: absent) */
const viaText = (v: unknown): unknown => (JSON.parse(JSON.stringify([v])) as unknown[])[0];
const str = (v: unknown): string => {
  if (typeof v === 'string') return v;
  const back = v === undefined ? null : viaText(v);
  return back === null ? '' : String(back);
};
const optStr = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v;
  const back = v === undefined ? null : viaText(v);
  return back === null ? undefined : String(back);
};
/** double: non-finite values cross as "NaN"/"Infinity" strings and come back as such numbers */
const dbl = (v: unknown): number => (typeof v === 'number' ? v : v === undefined || v === null ? 0 : Number(viaText(v)));
/** int32: rounded by toJSON; a non-finite result is null on the wire and 0 after decoding */
const int32 = (v: unknown): number => {
  const r = Math.round(v as number);
  return Number.isFinite(r) ? r : 0;
};
const bool = (v: unknown): boolean => (typeof v === 'boolean' ? v : v === undefined ? false : Boolean(viaText(v)));
/** a JSON array element as the decoder reads it back (String of the parsed value) */
const element = (e: unknown): string => (typeof e === 'string' ? e : String(viaText(e)));
const strList = (v: unknown): string[] =>
  Array.isArray(v) && v.length > 0 ? (v.every((e) => typeof e === 'string') ? (v as string[]) : v.map(element)) : [];
/** a map<string, string>: entries copied by assignment (so `__proto__` is lost), then decoded with String() */
function strMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!v) return out;
  for (const [k, x] of Object.entries(v)) {
    if (k === '__proto__') continue;
    if (typeof x === 'string') {
      out[k] = x;
      continue;
    }
    const text = JSON.stringify(x);
    if (text !== undefined) out[k] = String(JSON.parse(text));
  }
  return out;
}

/** The metrics record for a view: the public metrics, then for `paid` the paid-only ones (absent when unset), in the message's order. */
function metricsOf(m: TokenMetrics | undefined, view: BodyView): Record<string, string | undefined> {
  const x = m ?? EMPTY_METRICS;
  const out: Record<string, string | undefined> = {};
  for (const f of PUBLIC_METRIC_FIELDS) out[f] = str(x[f]);
  if (view === 'paid') for (const f of PAID_METRIC_FIELDS) out[f] = optStr(x[f]);
  return out;
}

/** The proto3 JSON round trip of a field of each kind of the record field lists. */
const ROUND_TRIP: Required<FieldConverters<BodyView>> = {
  string: str,
  dateTime: str,
  int32,
  double: dbl,
  bool,
  strings: strList,
  stringMap: strMap,
  metrics: (v, view) => metricsOf(v as TokenMetrics | undefined, view),
  /** optional int64: a JSON number, or null when unset */
  blockOrNull: (v) => (v === undefined || v === null ? null : Number(String(v))),
};

/** The spec's Token record of a message: TOKEN_FIELDS of @tokensvc/api in their order, each through the round trip of its kind. */
const tokenRecord = recordWriter<Token, BodyView>(TOKEN_FIELDS, ROUND_TRIP);
/** One candle: HISTORY_ENTRY_FIELDS (the history endpoint is paid-only: one view), its block label after them. */
const historyRecord = recordWriter<HistoryEntry, BodyView>(HISTORY_ENTRY_FIELDS, ROUND_TRIP);

/** A Buffer of its own (not a slice of Node's shared 8 kB pool, which one kept fragment would pin). */
function ownBuffer(text: string): Buffer {
  const b = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  b.write(text);
  return b;
}

/** The JSON of one Token record for a view, built once per Token object. */
export function tokenJson(token: Token | undefined, view: BodyView): Buffer {
  const t = token ?? EMPTY_TOKEN;
  let f = FRAGMENTS.get(t);
  if (!f) FRAGMENTS.set(t, (f = {}));
  return (f[view] ??= ownBuffer(JSON.stringify(tokenRecord(t, view))));
}

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');
const CLOSE = ascii(']}');
const COMMA = ascii(',');

/** `,"block":{…}` of each network's label (a network without one: block 0, not final) */
function blockTails(blocks: readonly BlockLabel[] | undefined): (network: string | undefined) => Buffer {
  const tails = new Map<string, Buffer>();
  for (const b of blocks ?? []) if (!tails.has(b.network)) tails.set(b.network, Buffer.from(`,"block":${JSON.stringify(labelJson(b))}`));
  const none = Buffer.from(`,"block":${JSON.stringify(labelJson(undefined))}`);
  return (network) => (network !== undefined && tails.get(network)) || none;
}
const CLOSE_RECORD = ascii('}');

function balanceTail(b: Balance): string {
  return `,"balance":${JSON.stringify(dbl(b.balance))},"balanceUSD":${JSON.stringify(dbl(b.balanceUsd))},"rawBalance":${JSON.stringify(str(b.rawBalance))}}`;
}

/** `{"totalQueried":…,"balances":[…]}`: each balance is its token's record with balance, balanceUSD, rawBalance after it. */
export function accountBody(reply: AccountReply, view: BodyView): Buffer {
  const parts: Buffer[] = [ascii(`{"totalQueried":${int32(reply.totalQueried)},"balances":[`)];
  const block = blockTails(reply.blocks);
  reply.balances.forEach((b, i) => {
    if (i > 0) parts.push(COMMA);
    const record = tokenJson(b.token, view);
    parts.push(record.subarray(0, record.length - 1), block(b.token?.network), Buffer.from(balanceTail(b)));
  });
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

/** `{"totalItems":…,"pageItems":…,"more":…,"page":…,"tokens":[…]}` */
export function listTokensBody(reply: ListTokensReply, view: BodyView): Buffer {
  const head = `{"totalItems":${int32(reply.totalItems)},"pageItems":${int32(reply.pageItems)},"more":${bool(reply.more)},"page":${int32(reply.page)},"tokens":[`;
  const parts: Buffer[] = [ascii(head)];
  const block = blockTails(reply.blocks);
  reply.tokens.forEach((t, i) => {
    if (i > 0) parts.push(COMMA);
    const record = tokenJson(t, view);
    parts.push(record.subarray(0, record.length - 1), block(t?.network), CLOSE_RECORD);
  });
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

/** One candle in the message's field order (the decoded HistoryEntry, as the gateway sent it). */
function historyEntry(e: HistoryEntry): string {
  const out = historyRecord(e, 'paid');
  out['block'] = labelJson(e.block);
  return JSON.stringify(out);
}

/** `{"totalItems":…,"pageItems":…,"more":…,"page":…,"history":[…],"block":{…}}` */
export function historyBody(reply: TokenHistoryReply): Buffer {
  const head = `{"totalItems":${int32(reply.totalItems)},"pageItems":${int32(reply.pageItems)},"more":${bool(reply.more)},"page":${int32(reply.page)},"history":[`;
  return Buffer.from(`${head}${reply.history.map(historyEntry).join(',')}],"block":${JSON.stringify(labelJson(reply.block))}}`);
}
