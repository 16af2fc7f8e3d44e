/** Every simple path (no token twice) of up to `maxHops` pools from one token to another. */
import type { Pool } from '@tokensvc/routing';

export interface Hop {
  pool: number;
  zeroForOne: boolean;
}
export type Path = readonly Hop[];

export function simplePaths(pools: readonly Pool[], from: string, to: string, maxHops: number): Path[] {
  const byToken = new Map<string, Array<Hop & { next: string }>>();
  pools.forEach((p, pool) => {
    byToken.set(p.token0, [...(byToken.get(p.token0) ?? []), { pool, zeroForOne: true, next: p.token1 }]);
    byToken.set(p.token1, [...(byToken.get(p.token1) ?? []), { pool, zeroForOne: false, next: p.token0 }]);
  });
  const out: Path[] = [];
  const walk = (token: string, visited: Set<string>, path: Hop[]) => {
    if (token === to) {
      out.push([...path]);
      return;
    }
    if (path.length === maxHops) return;
    for (const e of byToken.get(token) ?? []) {
      if (visited.has(e.next)) continue;
      visited.add(e.next);
      path.push({ pool: e.pool, zeroForOne: e.zeroForOne });
      walk(e.next, visited, path);
      path.pop();
      visited.delete(e.next);
    }
  };
  walk(from, new Set([from]), []);
  return out;
}
