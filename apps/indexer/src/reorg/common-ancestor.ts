import type { ChainReader } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import type { SqlTx } from '../model/sql-tx';
import { storedBlocksDescending } from '../store/blocks.repo';

/**
 * Walks back from `from` through the stored blocks (newest first, a page at a time) until one
 * has the same hash on the node: the common ancestor. Undefined when no stored block matches.
 */
export async function findCommonAncestor(
  q: SqlTx,
  reader: ChainReader,
  network: Network,
  from: number,
  page = 64,
): Promise<{ number: number; hash: string } | undefined> {
  let below = from;
  for (;;) {
    const stored = await storedBlocksDescending(q, network, below, page);
    if (stored.length === 0) return undefined;
    const onNode = await reader.maybeHeaders(stored.map((s) => s.number));
    for (let i = 0; i < stored.length; i++) if (onNode[i]?.hash === stored[i]!.hash) return stored[i];
    below = stored[stored.length - 1]!.number - 1;
  }
}
