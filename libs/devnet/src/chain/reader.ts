import type { Interface, Result } from 'ethers';
import { decodeResult, encodeCall } from './encode';
import { RpcClient } from './rpc';

export interface ReadCall {
  to: string;
  iface: Interface;
  fn: string;
  args?: readonly unknown[];
}

/** eth_call many view functions against the latest block in one ordered batch. */
export async function readMany(rpc: RpcClient, calls: readonly ReadCall[]): Promise<Result[]> {
  const raw = await rpc.batch<string>(
    calls.map((c) => ({ method: 'eth_call', params: [{ to: c.to, data: encodeCall(c.iface, c.fn, c.args ?? []) }, 'latest'] })),
  );
  return raw.map((data, i) => {
    const c = calls[i]!;
    return decodeResult(c.iface, c.fn, data);
  });
}

export async function readOne(rpc: RpcClient, call: ReadCall): Promise<Result> {
  const [result] = await readMany(rpc, [call]);
  return result!;
}
