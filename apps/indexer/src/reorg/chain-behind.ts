import { ChainReader, JsonRpcClient } from '@tokensvc/chain';

/** Where the indexed data stands against the chain a node serves. */
export type CursorOnChain =
  /** the node has the cursor's block, same hash */
  | 'known'
  /** the node has no block at the cursor's height, or another one there */
  | 'unknown';

/** Whether `reader`'s node has the block `cursor` (height and hash). Transport errors propagate. */
export async function cursorOnChain(reader: ChainReader, cursor: { blockNumber: number; blockHash: string }): Promise<CursorOnChain> {
  const [header] = await reader.maybeHeaders([cursor.blockNumber]);
  return header !== undefined && header.hash === cursor.blockHash ? 'known' : 'unknown';
}

/**
 * The other RPC URLs of a network (RPC_FALLBACK_URLS_<NETWORK>), asked only when the main one
 * serves a chain below the indexer's cursor: a node that is merely behind (a failover onto a
 * lagging node, a load balancer's stale backend) must not make the indexer roll back what is still
 * the chain. One quick attempt per URL: a fallback that fails does not vouch for anything.
 */
export class FallbackNodes {
  private readonly readers: ChainReader[];

  constructor(urls: readonly string[], timeoutMs: number) {
    this.readers = urls.map(
      (url) =>
        new ChainReader(
          new JsonRpcClient(url, { timeoutMs: Math.min(timeoutMs, 5_000), retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } }),
        ),
    );
  }

  get size(): number {
    return this.readers.length;
  }

  /** The first fallback URL whose node has the cursor's block (so the main node is only behind), or undefined. */
  async vouchFor(cursor: { blockNumber: number; blockHash: string }): Promise<string | undefined> {
    for (const reader of this.readers) {
      try {
        if ((await cursorOnChain(reader, cursor)) === 'known') return reader.client.url;
      } catch {
        // unreachable or failing: it vouches for nothing
      }
    }
    return undefined;
  }
}
