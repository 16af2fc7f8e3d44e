/** Minimal JSON-RPC client: anvil-specific methods and ordered batches are all the devnet needs. */

export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message}${data !== undefined ? ` (${JSON.stringify(data)})` : ''}`);
  }
}

export interface RpcCall {
  method: string;
  params: unknown[];
}

interface RpcResponse {
  id: number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * anvil executes up to 64 requests of a batch concurrently and only the first 64 keep their order,
 * so batches are cut below that: transactions sent in one chunk then land in the block in order.
 */
const MAX_BATCH = 50;

export class RpcClient {
  private nextId = 1;

  constructor(readonly url: string) {}

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const {
      responses: [response],
    } = await this.postWithIds([{ method, params }]);
    if (!response) throw new RpcError(method, -32603, 'empty response');
    if (response.error) throw new RpcError(method, response.error.code, response.error.message, response.error.data);
    return response.result as T;
  }

  /** Runs calls in order (chunk after chunk) and returns results in call order; the first error throws. */
  async batch<T = unknown>(calls: readonly RpcCall[]): Promise<T[]> {
    const settled = await this.batchSettled<T>(calls);
    return settled.map((r, i) => {
      if (r.error) throw r.error;
      if (!calls[i]) throw new Error('unreachable');
      return r.result as T;
    });
  }

  async batchSettled<T = unknown>(calls: readonly RpcCall[]): Promise<Array<{ result?: T; error?: RpcError }>> {
    const out: Array<{ result?: T; error?: RpcError }> = [];
    for (let i = 0; i < calls.length; i += MAX_BATCH) {
      const chunk = calls.slice(i, i + MAX_BATCH);
      const { first, responses } = await this.postWithIds(chunk);
      const byId = new Map(responses.map((r) => [r.id, r]));
      chunk.forEach((c, j) => {
        const r = byId.get(first + j);
        if (!r) out.push({ error: new RpcError(c.method, -32603, 'missing response in batch') });
        else if (r.error) out.push({ error: new RpcError(c.method, r.error.code, r.error.message, r.error.data) });
        else out.push({ result: r.result as T });
      });
    }
    return out;
  }

  private async postWithIds(calls: readonly RpcCall[]): Promise<{ first: number; responses: RpcResponse[] }> {
    const first = this.nextId;
    this.nextId += calls.length;
    const body = calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params }));
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls.length === 1 ? body[0] : body),
    });
    if (!res.ok) throw new RpcError(calls[0]?.method ?? '?', res.status, `HTTP ${res.status} ${await res.text()}`);
    const json = (await res.json()) as RpcResponse | RpcResponse[];
    return { first, responses: Array.isArray(json) ? json : [json] };
  }
}

export const toHex = (n: bigint | number): string => `0x${n.toString(16)}`;
