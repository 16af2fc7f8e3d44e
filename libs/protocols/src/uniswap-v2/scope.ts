/** Start-block state of Uniswap V2-style pairs: factory.getPair of every listed pair, then its reserves. */
import type { PlatformDefinition } from '@tokensvc/domain';
import { roleAddress } from '../indexing/adapter-helpers';
import { type ScopeReadContext, type ScopeSnapshot, ZERO, abiReader, lower, stateAt } from '../indexing/scope-read';

/** Uniswap V2 pairs charge 0.3 % (3000 in V3's hundredths of a bip). */
export const V2_FEE = 3000;

/** The pairs' fee on a platform: its `fee` option (a near-fork's, checked at start), else Uniswap V2's. */
export function v2Fee(options: PlatformDefinition['options']): number {
  const fee = options?.['fee'];
  return typeof fee === 'number' ? fee : V2_FEE;
}

const { call, decode } = abiReader([
  'function getPair(address, address) view returns (address)',
  'function getReserves() view returns (uint112, uint112, uint32)',
]);

export async function readV2Scope(p: PlatformDefinition, ctx: ScopeReadContext): Promise<ScopeSnapshot> {
  const out: ScopeSnapshot = { pools: [], ticks: [], tokens: [] };
  const factory = roleAddress(p, 'factory');
  if (!factory) return out;
  const { pairs, block } = ctx;
  const fee = v2Fee(p.options);
  const found = (await ctx.multicall(pairs.map(([a, b]) => call(factory, 'getPair', [a, b]))))
    .map((r, i) => ({ pair: pairs[i]!, address: lower((decode('getPair', r)?.[0] as string | undefined) ?? ZERO) }))
    .filter((x) => x.address !== lower(ZERO));
  const reserves = await ctx.multicall(found.map((f) => call(f.address, 'getReserves')));
  found.forEach((f, i) => {
    const r = decode('getReserves', reserves[i]);
    if (!r) return;
    const [token0, token1] = f.pair;
    out.pools.push({
      info: { address: f.address, platform: p.slug, family: 'uniswap-v2', token0, token1, fee, tickSpacing: null, createdBlock: block },
      state: stateAt(block, r[0] as bigint, r[1] as bigint, false),
    });
    out.tokens.push({
      address: f.address,
      platform: p.slug,
      family: 'uniswap-v2',
      underlying: [token0, token1],
      poolAddress: f.address,
      listed: false,
      metadata: { fee },
    });
  });
  return out;
}
