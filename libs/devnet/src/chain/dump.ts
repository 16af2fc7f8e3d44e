/**
 * Saves an anvil state (anvil_dumpState) as the plain JSON --load-state accepts, minus the
 * nested call traces anvil records for every transaction: they are over half the file, while
 * logs, receipts and the top-level call (what indexers and trace_transaction's first frame
 * need) are kept. Fewer bytes also means a faster warm start.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { RpcClient } from './rpc';

interface TraceNode {
  children: unknown[];
  logs: unknown[];
  ordering: unknown[];
}

interface AnvilState {
  transactions?: Array<{ info?: { traces?: TraceNode[] } }>;
}

export function compactState(state: AnvilState): AnvilState {
  for (const tx of state.transactions ?? []) {
    const root = tx.info?.traces?.[0];
    if (tx.info && root) tx.info.traces = [{ ...root, children: [], logs: [], ordering: [] }];
  }
  return state;
}

export async function saveState(rpc: RpcClient, file: string): Promise<void> {
  const dump = await rpc.call<string>('anvil_dumpState');
  // anvil dumps gzip but only loads plain JSON.
  const state = JSON.parse(gunzipSync(Buffer.from(dump.slice(2), 'hex')).toString('utf8')) as AnvilState;
  writeFileSync(`${file}.tmp`, JSON.stringify(compactState(state)));
  renameSync(`${file}.tmp`, file);
}
