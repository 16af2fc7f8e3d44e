import type { RpcEndpoint } from './endpoint';
import { BlockNotOnNodeError, JsonRpcError, RpcTransportError, isRateLimitError } from './errors';
import type { RetryPolicy } from './retry';
import { RpcPool } from './rpc-pool';
import { rpcSpan } from './rpc-span';

export interface RpcRequest {
  readonly method: string;
  readonly params: readonly unknown[];
}

interface RpcResponse {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** One HTTP exchange: the status, the body, the Retry-After header. Throws on no answer. */
export type RpcTransport = (
  url: string,
  body: string,
  timeoutMs: number,
) => Promise<{ status: number; text: string; retryAfter?: string | null }>;

export interface JsonRpcClientOptions {
  /** per HTTP request */
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** requests per HTTP batch, at first (each URL's cap is learned below it) */
  maxBatch?: number;
  /** per-URL request budget, requests per second (0 = none) */
  maxRps?: number;
  /** see RpcPoolOptions.maxHeadLag */
  maxHeadLag?: number;
  onRetry?: (method: string, e: unknown, attempt: number) => void;
  /** the HTTP exchange (default: fetch); tests put a fake node here */
  transport?: RpcTransport;
  /** for tests: no real waiting, a seeded jitter */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface CallOptions {
  retryIf?: (e: unknown) => boolean;
  /** thrown at once (e.g. "range too large": the caller asks for less) */
  giveUp?: (e: unknown) => boolean;
  /** the call reads this block: URLs known to be behind it are skipped */
  minBlock?: number;
  /**
   * a null result means the node lacks this block (eth_getBlockByNumber): asked elsewhere, then
   * again later; with `nullIfNoneHasIt`, null once every URL answered null
   */
  lacksBlockIfNull?: number;
  nullIfNoneHasIt?: boolean;
}

const fetchTransport: RpcTransport = async (url, body, timeoutMs) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
};

/** Retry-After in ms: seconds or an HTTP date. */
export function parseRetryAfter(v: string | null | undefined, now = Date.now()): number | undefined {
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * JSON-RPC over fetch: plain JSON parsing (ethers' provider is slow on 10k-log responses),
 * per-request timeout, ordered batches, and one or several URLs (RpcPool: failover, health
 * scoring, per-URL budget and 429 pauses, nodes behind skipped). A URL that refuses a batch (an
 * error object instead of the array, HTTP 413, or fewer answers than requests, as capped hosted
 * providers do) gets smaller batches from then on; the answers it did give are kept.
 */
export class JsonRpcClient {
  readonly pool: RpcPool;
  private nextId = 1;
  private readonly timeoutMs: number;
  private readonly transport: RpcTransport;

  constructor(
    urls: string | readonly string[],
    private readonly opts: JsonRpcClientOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.transport = opts.transport ?? fetchTransport;
    this.pool = new RpcPool(urls, {
      maxRps: opts.maxRps,
      maxBatch: opts.maxBatch,
      retry: opts.retry,
      maxHeadLag: opts.maxHeadLag,
      sleep: opts.sleep,
      random: opts.random,
    });
  }

  /** the first URL (the only one, for a single-URL client) */
  get url(): string {
    return this.pool.endpoints[0]!.url;
  }

  get urls(): string[] {
    return this.pool.endpoints.map((e) => e.url);
  }

  /** One call; retried (on another URL first) when the failure is transient (or when `retryIf` says so). */
  async call<T>(method: string, params: readonly unknown[] = [], o: CallOptions = {}): Promise<T> {
    const block = o.lacksBlockIfNull;
    return this.pool.run(
      async (e) => {
        const [res] = await this.post(e, [{ method, params }]);
        const result = unwrap<T>(method, res);
        if (result === null && block !== undefined) throw new BlockNotOnNodeError(method, block, e.url);
        return result;
      },
      {
        method,
        minBlock: o.minBlock ?? block,
        retryIf: o.retryIf,
        giveUp: o.giveUp,
        onRetry: this.opts.onRetry,
        whenNoneHasIt: o.nullIfNoneHasIt ? () => null as T : undefined,
      },
    );
  }

  /** The same call to every URL not paused by a 429, at once, without retries: each URL's answer or error. */
  async callEach<T>(
    method: string,
    params: readonly unknown[] = [],
  ): Promise<Array<{ endpoint: RpcEndpoint; result?: T; error?: unknown }>> {
    const now = Date.now();
    const open = this.pool.endpoints.filter((e) => e.throttledUntil <= now);
    return Promise.all(
      (open.length > 0 ? open : this.pool.endpoints).map(async (endpoint) => {
        try {
          const result = await this.pool.once(endpoint, async (e) => unwrap<T>(method, (await this.post(e, [{ method, params }]))[0]));
          return { endpoint, result };
        } catch (error) {
          return { endpoint, error };
        }
      }),
    );
  }

  /**
   * Many calls in HTTP batches of at most the URL's learned cap; results in call order. An error
   * answer fails the batch after retries (answers already received are kept across retries).
   */
  async batch<T>(requests: readonly RpcRequest[], o: { minBlock?: number } = {}): Promise<T[]> {
    const out = new Array<T>(requests.length);
    const done = new Array<boolean>(requests.length).fill(false);
    let pending = requests.map((_, i) => i);
    const method = requests[0]?.method ?? 'batch';
    while (pending.length > 0) {
      const todo = pending;
      await this.pool.run((e) => this.batchOnce(e, requests, todo, out, done), {
        method,
        minBlock: o.minBlock,
        onRetry: this.opts.onRetry,
      });
      pending = pending.filter((i) => !done[i]);
    }
    return out;
  }

  /** One HTTP batch of the first `e.batchCap` of `todo`: answers stored, a refusal shrinks the cap. */
  private async batchOnce<T>(
    e: RpcEndpoint,
    requests: readonly RpcRequest[],
    todo: readonly number[],
    out: T[],
    done: boolean[],
  ): Promise<void> {
    const idx = todo.slice(0, e.batchCap);
    const chunk = idx.map((i) => requests[i]!);
    let responses: Array<RpcResponse | undefined>;
    try {
      responses = await this.post(e, chunk);
    } catch (err) {
      if (chunk.length > 1 && err instanceof BatchRefused) {
        e.shrinkBatch(chunk.length);
        return;
      }
      throw err;
    }
    let answered = 0;
    let failed: unknown;
    for (let j = 0; j < chunk.length; j++) {
      const res = responses[j];
      if (!res || (res.error && chunk.length > 1 && isBatchCapMessage(res.error.message))) continue;
      try {
        out[idx[j]!] = unwrap<T>(chunk[j]!.method, res);
        done[idx[j]!] = true;
        answered++;
      } catch (err) {
        failed ??= err;
      }
    }
    if (failed !== undefined) throw failed;
    if (answered < chunk.length) e.shrinkBatch(chunk.length, answered);
  }

  /** Sends requests (a batch when more than one) and returns the responses in request order. */
  private post(e: RpcEndpoint, requests: readonly RpcRequest[]): Promise<Array<RpcResponse | undefined>> {
    return rpcSpan(e.url, requests[0]?.method ?? 'batch', requests.length, () => this.send(e.url, requests));
  }

  private async send(url: string, requests: readonly RpcRequest[]): Promise<Array<RpcResponse | undefined>> {
    const first = this.nextId;
    this.nextId += requests.length;
    const body = requests.map((r, i) => ({ jsonrpc: '2.0', id: first + i, method: r.method, params: r.params }));
    const method = requests[0]?.method ?? 'batch';
    let status: number;
    let text: string;
    let retryAfter: string | null | undefined;
    try {
      ({ status, text, retryAfter } = await this.transport(url, JSON.stringify(body.length === 1 ? body[0] : body), this.timeoutMs));
    } catch (e) {
      const err = e as Error;
      throw new RpcTransportError(method, err.name === 'TimeoutError' ? `timeout after ${this.timeoutMs} ms` : err.message);
    }
    if (status < 200 || status >= 300) {
      if (requests.length > 1 && (status === 413 || (status === 400 && isBatchCapMessage(text))))
        throw new BatchRefused(method, `HTTP ${status} ${text.slice(0, 200)}`);
      throw new RpcTransportError(method, `HTTP ${status} ${text.slice(0, 200)}`, status, parseRetryAfter(retryAfter));
    }
    let json: RpcResponse | RpcResponse[];
    try {
      json = JSON.parse(text) as RpcResponse | RpcResponse[];
    } catch {
      throw new RpcTransportError(method, `body is not JSON: ${text.slice(0, 200)}`);
    }
    // A single request may be answered with an id-less error (e.g. a proxy's own error).
    if (requests.length === 1) return [Array.isArray(json) ? json[0] : json];
    if (!Array.isArray(json)) {
      // One object for a whole batch: a rate limit, or (capped providers) "batch too large".
      const err = json.error ? new JsonRpcError(method, json.error.code, json.error.message, json.error.data) : undefined;
      if (err && isRateLimitError(err)) throw err;
      throw new BatchRefused(method, `a batch of ${requests.length} answered with one object: ${text.slice(0, 200)}`);
    }
    const byId = new Map(json.map((r) => [r.id, r]));
    return requests.map((_, i) => byId.get(first + i));
  }
}

/** A URL's refusal of a batch as too large (answered with one object, 413): the batch shrinks. */
class BatchRefused extends RpcTransportError {}

const isBatchCapMessage = (text: string): boolean =>
  /batch/i.test(text) && /size|limit|too (?:large|many|big)|exceed|maximum|at most/i.test(text);

function unwrap<T>(method: string, res: RpcResponse | undefined): T {
  if (!res) throw new RpcTransportError(method, 'no response for this request in the batch');
  if (res.error) throw new JsonRpcError(method, res.error.code, res.error.message, res.error.data);
  if (!('result' in res)) throw new RpcTransportError(method, 'response has neither result nor error');
  return res.result as T;
}

export const toQuantity = (n: number | bigint): string => `0x${n.toString(16)}`;
