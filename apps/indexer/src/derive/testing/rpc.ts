/** Minimal JSON-RPC over fetch for tests (large eth_getLogs answers parse fast as plain JSON). */
export async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

export async function rpcBatch<T>(url: string, calls: ReadonlyArray<[string, unknown[]]>): Promise<T[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params }))),
  });
  const body = (await res.json()) as Array<{ id: number; result?: T; error?: { message: string } }>;
  return body
    .sort((a, b) => a.id - b.id)
    .map((r) => {
      if (r.error) throw new Error(r.error.message);
      return r.result as T;
    });
}

export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  logIndex: string;
}

export const hex = (n: number | bigint): string => `0x${n.toString(16)}`;
