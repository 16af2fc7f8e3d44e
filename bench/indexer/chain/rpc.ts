/** A small fetch-based JSON-RPC client with per-request timeouts (loopback anvil only). */

export interface RpcRequest {
  method: string;
  params: unknown[];
}

interface RpcReply {
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

export class BenchRpc {
  private id = 1;

  constructor(
    readonly url: string,
    private readonly timeoutMs = 120_000,
  ) {}

  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const [result] = await this.batch<T>([{ method, params }]);
    return result as T;
  }

  /** One HTTP request for all calls; results in call order; the first error throws. */
  async batch<T>(calls: readonly RpcRequest[]): Promise<T[]> {
    if (calls.length === 0) return [];
    const first = this.id;
    this.id += calls.length;
    const body = calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params }));
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new Error(`${calls[0]!.method}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    const replies = (await res.json()) as RpcReply[];
    const byId = new Map(replies.map((r) => [r.id, r]));
    return calls.map((c, i) => {
      const r = byId.get(first + i);
      if (!r) throw new Error(`${c.method}: no reply`);
      if (r.error) throw new Error(`${c.method}: ${r.error.message} (${r.error.code})`);
      return r.result as T;
    });
  }

  async blockNumber(): Promise<number> {
    return Number(await this.call<string>('eth_blockNumber'));
  }
}

export const hex = (n: number | bigint): string => `0x${n.toString(16)}`;

/** Number and timestamp of the node's latest block. */
export async function latestBlock(rpc: BenchRpc): Promise<{ number: number; timestamp: number }> {
  const b = await rpc.call<{ number: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
  return { number: Number(b.number), timestamp: Number(b.timestamp) };
}
