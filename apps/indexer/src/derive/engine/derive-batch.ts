/**
 * The derivation of one decoded batch, block by block, without I/O: ledger events in chain
 * order, then (if a pool moved) the price graph, then the block's activities at its closing
 * prices, then the new state of every token that could have changed. A state point is emitted
 * when a token's state differs from its last one, or when it had activity in the block.
 */
import type { DecodedBatch, LendingEvent, LiquidityEvent, PoolStateEvent, ReserveRatesEvent, SwapEvent, TransferEvent, VaultFlowEvent } from '../../pipeline/decoded-batch';
import type { DeriveOptions } from '../derive-options';
import { poolQuote } from '../math/pool-price';
import { propagatePrices, type GraphEdge } from '../math/price-graph';
import { lendingActivity, liquidityActivity, swapActivity, vaultActivity, type ActivityRow, type PriceBook } from './activities';
import { applyLending, applyReserveRates, applyTransfer } from './ledger-events';
import { ROLE_ORDER, sameState, type TokenState } from './model';
import type { NetworkState } from './network-state';
import { valueToken } from './valuation';

export type ChainEvent =
  | { kind: 'transfer'; e: TransferEvent }
  | { kind: 'pool'; e: PoolStateEvent }
  | { kind: 'swap'; e: SwapEvent }
  | { kind: 'liquidity'; e: LiquidityEvent }
  | { kind: 'vault'; e: VaultFlowEvent }
  | { kind: 'lending'; e: LendingEvent }
  | { kind: 'rates'; e: ReserveRatesEvent };

export interface BatchOutput {
  points: TokenState[];
  activities: ActivityRow[];
}

/** Every event of the batch in chain order (block, log index). */
export function chainOrder(b: DecodedBatch): ChainEvent[] {
  const all: ChainEvent[] = [
    ...b.transfers.map((e) => ({ kind: 'transfer', e }) as const),
    ...b.poolStates.map((e) => ({ kind: 'pool', e }) as const),
    ...b.swaps.map((e) => ({ kind: 'swap', e }) as const),
    ...b.liquidity.map((e) => ({ kind: 'liquidity', e }) as const),
    ...b.vaultFlows.map((e) => ({ kind: 'vault', e }) as const),
    ...b.lending.map((e) => ({ kind: 'lending', e }) as const),
    ...b.reserveRates.map((e) => ({ kind: 'rates', e }) as const),
  ];
  return all.sort((x, y) => x.e.blockNumber - y.e.blockNumber || x.e.logIndex - y.e.logIndex);
}

/** Re-runs the price graph over every pool; returns the tokens whose USD price changed. */
export function updateGraphPrices(net: NetworkState, opts: DeriveOptions): string[] {
  const edges: GraphEdge[] = [];
  for (const pool of net.poolList) {
    const state = net.poolStates.get(pool.address);
    const d0 = net.tokens.get(pool.token0)?.decimals;
    const d1 = net.tokens.get(pool.token1)?.decimals;
    if (!state || d0 === undefined || d1 === undefined) continue;
    const q = poolQuote(state, d0, d1);
    if (q) edges.push({ token0: pool.token0, token1: pool.token1, ...q });
  }
  const anchors = new Map([...net.anchors].map((a) => [a, 1]));
  const fresh = propagatePrices(anchors, edges, { minLiquidityUsd: opts.minPoolLiquidityUsd, maxDeviation: opts.maxPriceDeviation, iterations: opts.graphIterations });
  const changed: string[] = [];
  const next = new Map(net.graphPrices);
  for (const [token, price] of fresh) {
    if (next.get(token) !== price) changed.push(token);
    next.set(token, price);
  }
  net.graphPrices = next;
  return changed;
}

export function priceBook(net: NetworkState): PriceBook {
  return {
    network: net.network,
    keyOf: (a) => net.tokens.get(a)?.key ?? `${net.network}:${a}`,
    symbolOf: (a) => net.tokens.get(a)?.symbol ?? '',
    decimalsOf: (a) => net.tokens.get(a)?.decimals ?? 18,
    priceOf: (a) => net.priceOf(a),
  };
}

/** The activity of one event and the platform token it belongs to, if any. */
function activityOf(net: NetworkState, book: PriceBook, ev: ChainEvent, time: number): { token: string; row: ActivityRow } | undefined {
  switch (ev.kind) {
    case 'swap':
    case 'liquidity': {
      const pool = net.pools.get(ev.e.pool);
      if (!pool || net.tokens.get(ev.e.pool)?.role !== 'lp') return undefined;
      if (ev.kind === 'liquidity') return { token: ev.e.pool, row: liquidityActivity(book, ev.e, ev.e.pool, pool.token0, pool.token1, time) };
      const state = net.poolStates.get(ev.e.pool);
      const reserveIn = !state ? 0n : ev.e.tokenIn === pool.token0 ? state.reserve0 : state.reserve1;
      return { token: ev.e.pool, row: swapActivity(book, ev.e, { lpAddress: ev.e.pool, token0: pool.token0, reserveIn, lpSupply: net.ledger(ev.e.pool).totalSupply }, time) };
    }
    case 'vault': {
      const asset = net.tokens.get(ev.e.vault)?.underlying[0];
      return asset ? { token: ev.e.vault, row: vaultActivity(book, ev.e, asset, time) } : undefined;
    }
    case 'lending': {
      const aToken = net.aTokenByReserve.get(`${ev.e.market}|${ev.e.asset}`);
      return aToken ? { token: aToken, row: lendingActivity(book, ev.e, aToken, time) } : undefined;
    }
    case 'transfer':
    case 'pool':
    case 'rates':
      return undefined;
  }
}

/** The seeds plus every composed token made (transitively) of them, valuation order. */
export function withDependents(net: NetworkState, seeds: Iterable<string>): string[] {
  const out = new Set<string>();
  const stack = [...seeds];
  while (stack.length > 0) {
    const a = stack.pop()!;
    if (out.has(a) || !net.tokens.has(a)) continue;
    out.add(a);
    stack.push(...(net.dependents.get(a) ?? []));
  }
  return [...out].sort((x, y) => ROLE_ORDER[net.tokens.get(x)!.role] - ROLE_ORDER[net.tokens.get(y)!.role] || (x < y ? -1 : 1));
}

/** Values `tokens` at (block, time); appends the states that changed (or must be recorded). */
export function revalue(net: NetworkState, tokens: readonly string[], block: number, time: number, out: TokenState[], force: ReadonlySet<string> = new Set()): void {
  for (const address of tokens) {
    const state = valueToken(net, net.tokens.get(address)!, block, time);
    const prev = net.states.get(address);
    if (!prev || !sameState(prev, state) || force.has(address)) out.push(state);
    net.states.set(address, state);
  }
}

function processBlock(net: NetworkState, events: readonly ChainEvent[], block: number, time: number, opts: DeriveOptions, out: BatchOutput): void {
  const seeds = new Set<string>();
  const flows: ChainEvent[] = [];
  let poolsMoved = false;
  for (const ev of events) {
    switch (ev.kind) {
      case 'transfer':
        applyTransfer(net, ev.e).forEach((a) => seeds.add(a));
        break;
      case 'pool': {
        const { pool, family, reserve0, reserve1, sqrtPriceX96, liquidity } = ev.e;
        net.poolStates.set(pool, { family, reserve0, reserve1, sqrtPriceX96, liquidity });
        const meta = net.pools.get(pool);
        if (meta) [pool, meta.token0, meta.token1].forEach((a) => seeds.add(a));
        poolsMoved = true;
        break;
      }
      case 'rates':
        applyReserveRates(net, ev.e).forEach((a) => seeds.add(a));
        break;
      case 'lending':
        applyLending(net, ev.e).forEach((a) => seeds.add(a));
        flows.push(ev);
        break;
      case 'swap':
      case 'liquidity':
      case 'vault':
        flows.push(ev);
        break;
    }
  }
  if (poolsMoved) updateGraphPrices(net, opts).forEach((a) => seeds.add(a));
  const book = priceBook(net);
  const active = new Set<string>();
  for (const ev of flows) {
    const a = activityOf(net, book, ev, time);
    if (!a) continue;
    out.activities.push(a.row);
    active.add(a.token);
    seeds.add(a.token);
    net.volumeOf(a.token).add(time, a.row.volumeUsd);
    if (a.row.type === 'swap') net.swapWindow(a.token).add(time, a.row.volumeUsd);
  }
  revalue(net, withDependents(net, seeds), block, time, out.points, active);
}

export function deriveBatch(net: NetworkState, batch: DecodedBatch, opts: DeriveOptions): BatchOutput {
  const times = new Map(batch.blocks.map((b) => [b.number, b.timestamp]));
  const events = chainOrder(batch);
  const out: BatchOutput = { points: [], activities: [] };
  for (let i = 0; i < events.length; ) {
    const block = events[i]!.e.blockNumber;
    let j = i;
    while (j < events.length && events[j]!.e.blockNumber === block) j++;
    const time = times.get(block);
    if (time === undefined) throw new Error(`batch ${batch.network} ${batch.fromBlock}-${batch.toBlock} has events in block ${block} but no header for it`);
    processBlock(net, events.slice(i, j), block, time, opts, out);
    i = j;
  }
  net.asOfBlock = batch.toBlock;
  return out;
}
