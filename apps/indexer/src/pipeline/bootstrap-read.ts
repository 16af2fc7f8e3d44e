/**
 * The start-block state read: each platform's module reads its pools, ticks and tokens by
 * Multicall3 at the block (its indexer facet's `readScope`), here in the listed tokens' scope.
 */
import { multicall, type JsonRpcClient, type PlatformDefinition } from '@tokensvc/chain';
import { PROTOCOLS, type ScopeReadContext, type ScopeSnapshot } from '@tokensvc/protocols';

export type { BootstrapPool, ScopeSnapshot } from '@tokensvc/protocols';
export { MAX_BITMAP_WORDS, bitmapWords } from '@tokensvc/protocols';

const ZERO = '0x0000000000000000000000000000000000000000';
const lower = (a: string): string => a.toLowerCase();

/** Unordered pairs of the listed tokens, each as (token0, token1) sorted by address as the factories sort them. */
export function listedPairs(listed: readonly string[]): Array<[string, string]> {
  const tokens = [...new Set(listed.map(lower))].filter((t) => t !== ZERO).sort();
  const out: Array<[string, string]> = [];
  for (let i = 0; i < tokens.length; i++) for (let j = i + 1; j < tokens.length; j++) out.push([tokens[i]!, tokens[j]!]);
  return out;
}

/**
 * Reads, by Multicall3 at `block`, every platform's state in the scope of the listed tokens: the
 * pools of the listed pairs with their state, and the tokens they issue (each family's readScope).
 */
export async function readScopeSnapshot(
  client: JsonRpcClient,
  platforms: readonly PlatformDefinition[],
  listed: readonly string[],
  block: number,
): Promise<ScopeSnapshot> {
  const tag = `0x${block.toString(16)}`;
  const ctx: ScopeReadContext = { block, listed, pairs: listedPairs(listed), multicall: (calls) => multicall(client, [...calls], tag) };
  const out: ScopeSnapshot = { pools: [], ticks: [], tokens: [] };
  for (const p of platforms) {
    const read = PROTOCOLS[p.family].indexer.readScope;
    if (!read) continue;
    const part = await read(p, ctx);
    out.pools.push(...part.pools);
    out.ticks.push(...part.ticks);
    out.tokens.push(...part.tokens);
  }
  return out;
}
