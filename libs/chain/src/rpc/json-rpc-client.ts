import { JsonRpcError, RpcTransportError, isRetryableRpcError } from './errors';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from './retry';
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

export interface JsonRpcClientOptions {
  /** per HTTP request */
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** requests per HTTP batch */
  maxBatch?: number;
  onRetry?: (method: string, e: unknown, attempt: number) => void;
}

/**
 * JSON-RPC over fetch: plain JSON parsing (ethers' provider is slow on 10k-log responses),
 * per-request timeout, retries with backoff and jitter on transport errors and rate limits,
 * ordered batches.
 */
export class JsonRpcClient {
  private nextId = 1;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly maxBatch: number;

  constructor(
    readonly url: string,
    private readonly opts: JsonRpcClientOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.retry = opts.retry ?? DEFAULT_RETRY;
    this.maxBatch = opts.maxBatch ?? 100;
  }

  /** One call; retried when the failure is transient (or when `retryIf` says so). */
  async call<T>(method: string, params: readonly unknown[] = [], opts: { retryIf?: (e: unknown) => boolean } = {}): Promise<T> {
    const once = async (): Promise<T> => {
      const [res] = await this.post([{ method, params }]);
      return unwrap<T>(method, res);
    };
    return withRetry(once, opts.retryIf ?? isRetryableRpcError, this.retry, (e, attempt) => this.opts.onRetry?.(method, e, attempt));
  }

  /** Many calls in HTTP batches; results in call order; any error fails the (retried) chunk. */
  async batch<T>(requests: readonly RpcRequest[]): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < requests.length; i += this.maxBatch) {
      const chunk = requests.slice(i, i + this.maxBatch);
      const results = await withRetry(
        async () => {
          const responses = await this.post(chunk);
          return chunk.map((r, j) => unwrap<T>(r.method, responses[j]));
        },
        isRetryableRpcError,
        this.retry,
        (e, attempt) => this.opts.onRetry?.(chunk[0]?.method ?? 'batch', e, attempt),
      );
      out.push(...results);
    }
    return out;
  }

  /** Sends requests (a batch when more than one) and returns the responses in request order. */
  private post(requests: readonly RpcRequest[]): Promise<Array<RpcResponse | undefined>> {
    return rpcSpan(this.url, requests[0]?.method ?? 'batch', requests.length, () => this.send(requests));
  }

  private async send(requests: readonly RpcRequest[]): Promise<Array<RpcResponse | undefined>> {
    const first = this.nextId;
    this.nextId += requests.length;
    const body = requests.map((r, i) => ({ jsonrpc: '2.0', id: first + i, method: r.method, params: r.params }));
    const method = requests[0]?.method ?? 'batch';
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body.length === 1 ? body[0] : body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (e) {
      const err = e as Error;
      throw new RpcTransportError(method, err.name === 'TimeoutError' ? `timeout after ${this.timeoutMs} ms` : err.message);
    }
    if (!res.ok) throw new RpcTransportError(method, `HTTP ${res.status} ${text.slice(0, 200)}`, res.status);
    let json: RpcResponse | RpcResponse[];
    try {
      json = JSON.parse(text) as RpcResponse | RpcResponse[];
    } catch {
      throw new RpcTransportError(method, `body is not JSON: ${text.slice(0, 200)}`);
    }
    const list = Array.isArray(json) ? json : [json];
    // A single request may be answered with an id-less error (e.g. a proxy's own error).
    if (requests.length === 1) return [list[0]];
    const byId = new Map(list.map((r) => [r.id, r]));
    return requests.map((_, i) => byId.get(first + i));
  }
}

function unwrap<T>(method: string, res: RpcResponse | undefined): T {
  if (!res) throw new RpcTransportError(method, 'no response for this request in the batch');
  if (res.error) throw new JsonRpcError(method, res.error.code, res.error.message, res.error.data);
  if (!('result' in res)) throw new RpcTransportError(method, 'response has neither result nor error');
  return res.result as T;
}

export const toQuantity = (n: number | bigint): string => `0x${n.toString(16)}`;
