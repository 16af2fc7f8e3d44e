/**
 * waitForStatus: a same-chain order ({ orderId }) until the relayer's answer is final (mined,
 * reverted, expired), by polling GET /v2/portal/status; a cross-chain order ({ orderId, txHash })
 * until SUCCESS, REFUND_STATUS or FAILED, over the SSE stream (reconnecting with Last-Event-ID so
 * no transition is lost or repeated), falling back to polling GET /v3/portal/status when the
 * stream is refused or keeps failing. An AbortSignal and a timeout end the wait.
 */
import { sleep } from './abort';
import { unwrap, type Tokensvc } from './client';
import { TokensvcError, TokensvcTimeoutError } from './errors';
import { readEventStream } from './sse';
import type { CrossChainStatus, CrossChainStatusEvent, RelayedOrder } from './types';

export const SAME_CHAIN_FINAL: readonly RelayedOrder['status'][] = ['mined', 'reverted', 'expired'];
export const CROSS_CHAIN_FINAL: readonly CrossChainStatus['status'][] = ['SUCCESS', 'REFUND_STATUS', 'FAILED'];

export interface WaitOptions {
  signal?: AbortSignal;
  /** default 10 minutes; a TokensvcTimeoutError after it */
  timeoutMs?: number;
  /** between polls (default 2 s) */
  pollMs?: number;
  /** cross-chain: use the SSE stream (default true); false polls only */
  sse?: boolean;
  /** cross-chain: stream failures in a row before polling instead (default 3) */
  maxReconnects?: number;
  /** every record seen, as it is seen */
  onUpdate?: (record: RelayedOrder | CrossChainStatus) => void;
}

export function waitForStatus(svc: Tokensvc, target: { orderId: string }, opts?: WaitOptions): Promise<RelayedOrder>;
export function waitForStatus(svc: Tokensvc, target: { orderId: string; txHash: string }, opts?: WaitOptions): Promise<CrossChainStatus>;
export async function waitForStatus(
  svc: Tokensvc,
  target: { orderId: string; txHash?: string },
  opts: WaitOptions = {},
): Promise<RelayedOrder | CrossChainStatus> {
  const timeoutMs = opts.timeoutMs ?? 600_000;
  const ctl = new AbortController();
  const timer = setTimeout(
    () => ctl.abort(new TokensvcTimeoutError(`order ${target.orderId}: no final status within ${timeoutMs} ms`)),
    timeoutMs,
  );
  const onAbort = (): void => ctl.abort(opts.signal!.reason);
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  const o = { ...opts, signal: ctl.signal };
  try {
    if (target.txHash === undefined) return await pollSameChain(svc, target.orderId, o);
    return await followCrossChain(svc, target.orderId, target.txHash, o);
  } catch (e) {
    // A fetch aborted by our controller throws its own AbortError: report the reason instead.
    if (ctl.signal.aborted) throw ctl.signal.reason;
    throw e;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

type Opts = WaitOptions & { signal: AbortSignal };

async function pollSameChain(svc: Tokensvc, orderId: string, o: Opts): Promise<RelayedOrder> {
  for (;;) {
    const r = await unwrap(svc.api.GET('/v2/portal/status', { params: { query: { orderId } }, signal: o.signal }));
    o.onUpdate?.(r);
    if (SAME_CHAIN_FINAL.includes(r.status)) return r;
    await sleep(o.pollMs ?? 2000, o.signal);
  }
}

async function pollCrossChain(svc: Tokensvc, orderId: string, txHash: string, o: Opts): Promise<CrossChainStatus> {
  for (;;) {
    const r = await unwrap(svc.api.GET('/v3/portal/status', { params: { query: { orderId, txHash } }, signal: o.signal }));
    o.onUpdate?.(r);
    if (CROSS_CHAIN_FINAL.includes(r.status)) return r;
    await sleep(o.pollMs ?? 2000, o.signal);
  }
}

/** Answers that no reconnect or poll would change: thrown as they are. */
const DEFINITE = new Set([400, 401, 403, 404]);

async function followCrossChain(svc: Tokensvc, orderId: string, txHash: string, o: Opts): Promise<CrossChainStatus> {
  if (o.sse === false) return pollCrossChain(svc, orderId, txHash, o);
  const url = `${svc.baseUrl}/v3/portal/status/stream?${new URLSearchParams({ orderId, txHash })}`;
  let lastEventId: string | undefined;
  let last: CrossChainStatus | undefined;
  let retryMs = 1000;
  for (let failures = 0; failures <= (o.maxReconnects ?? 3);) {
    let res: Response;
    try {
      const headers: Record<string, string> = { ...svc.headers, accept: 'text/event-stream' };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      res = await svc.fetch(new Request(url, { headers, signal: o.signal }));
    } catch (e) {
      if (o.signal.aborted) throw e;
      failures++;
      await sleep(retryMs, o.signal);
      continue;
    }
    // 204: the order is final and everything after lastEventId was sent already.
    if (res.status === 204) return last ?? pollCrossChain(svc, orderId, txHash, o);
    if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const body = await res.text().catch(() => '');
      if (DEFINITE.has(res.status)) throw TokensvcError.from(res, parseJson(body));
      break; // refused (429: too many streams), unavailable or not a stream: poll instead
    }
    let final: CrossChainStatus | undefined;
    let progressed = false;
    try {
      await readEventStream(
        res.body,
        (e) => {
          if (e.id !== undefined) lastEventId = e.id;
          const event = parseJson(e.data) as CrossChainStatusEvent | undefined;
          if (!event?.record) return false;
          progressed = true;
          last = event.record;
          o.onUpdate?.(event.record);
          if (CROSS_CHAIN_FINAL.includes(event.record.status)) final = event.record;
          return final !== undefined;
        },
        (ms) => (retryMs = Math.min(ms, o.pollMs ?? 2000)),
      );
    } catch (e) {
      if (o.signal.aborted) throw e;
    }
    if (final) return final;
    // The stream ended or broke before a final status: reconnect after the last event seen.
    failures = progressed ? 1 : failures + 1;
    await sleep(retryMs, o.signal);
  }
  return pollCrossChain(svc, orderId, txHash, o);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
