/**
 * The derivation of one decoded batch, block by block, without I/O: ledger events in chain
 * order, then (if a pool moved) the price graph, then the block's activities at its closing
 * prices, then the new state of every token that could have changed. A state point is emitted
 * when a token's state differs from its last one, or when it had activity in the block.
 */
import { shapeOf } from '@tokensvc/protocols';
import type {
  DecodedBatch,
  LendingEvent,
  LiquidityEvent,
  LogPosition,
  PoolStateEvent,
  ReserveRatesEvent,
  SwapEvent,
  TransferEvent,
  VaultFlowEvent,
} from '../../model/decoded-batch';
import type { TimeSlice } from '../../model/time-slice';
import type { DeriveOptions } from '../derive-options';
import { poolQuote } from '../math/pool-price';
import { priceGraph, type GraphEdge } from '../math/price-graph';
import { lendingActivity, liquidityActivity, swapActivity, vaultActivity, type ActivityRow, type PriceBook } from './activities';
import { BlockSwapVolumes, type SwapVolumeRow } from './swap-volumes';
import { applyLedgerSeeds, applyLending, applyReserveRates, applyTransfer } from './ledger-events';
import { ROLE_ORDER, sameState, type TokenState } from './model';
import type { NetworkState } from './network-state';
import { valueToken } from './valuation';

export interface BatchOutput {
  points: TokenState[];
  activities: ActivityRow[];
  /** swap volume of basic and native tokens per token and block (engine/swap-volumes.ts) */
  swapVolumes: SwapVolumeRow[];
}

/** The event lists of a DecodedBatch, in the order ties at one log position are broken. */
const TRANSFER = 0;
const POOL = 1;
const SWAP = 2;
const LIQUIDITY = 3;
const VAULT = 4;
const LENDING = 5;
const RATES = 6;
type Kind = typeof TRANSFER | typeof POOL | typeof SWAP | typeof LIQUIDITY | typeof VAULT | typeof LENDING | typeof RATES;

/** An activity-bearing event of a block, kept until the block's prices are known. */
type Flow =
  | { kind: typeof SWAP; e: SwapEvent }
  | { kind: typeof LIQUIDITY; e: LiquidityEvent }
  | { kind: typeof VAULT; e: VaultFlowEvent }
  | { kind: typeof LENDING; e: LendingEvent };

const before = (a: LogPosition, b: LogPosition): boolean =>
  a.blockNumber < b.blockNumber || (a.blockNumber === b.blockNumber && a.logIndex < b.logIndex);

function inChainOrder<T extends LogPosition>(list: readonly T[]): readonly T[] {
  for (let i = 1; i < list.length; i++)
    if (before(list[i]!, list[i - 1]!)) return [...list].sort((x, y) => x.blockNumber - y.blockNumber || x.logIndex - y.logIndex);
  return list;
}

/**
 * Walks every event of the batch in chain order (block, log index; at one position: transfer,
 * pool state, swap, liquidity, vault flow, lending, rates) by merging the per-kind lists, which
 * the decoder fills in chain order: no merged copy of 100k events is built.
 */
class ChainWalk {
  private readonly lists: ReadonlyArray<readonly LogPosition[]>;
  private readonly at = [0, 0, 0, 0, 0, 0, 0];
  /** the next event (undefined: none left) and its kind */
  event: LogPosition | undefined;
  kind: Kind = TRANSFER;

  constructor(b: DecodedBatch) {
    this.lists = [b.transfers, b.poolStates, b.swaps, b.liquidity, b.vaultFlows, b.lending, b.reserveRates].map((l) =>
      inChainOrder<LogPosition>(l),
    );
    this.advance(-1);
  }

  /** Moves past the current event (of list `taken`, -1 at the start) to the next one. */
  advance(taken: number): void {
    if (taken >= 0) this.at[taken]!++;
    let best: LogPosition | undefined;
    let kind = 0;
    for (let k = 0; k < 7; k++) {
      const e = this.lists[k]![this.at[k]!];
      if (e !== undefined && (best === undefined || before(e, best))) {
        best = e;
        kind = k;
      }
    }
    this.event = best;
    this.kind = kind as Kind;
  }
}

/**
 * Re-runs the price graph over every pool; returns the tokens whose USD price changed. A basic
 * token in a pool that the graph no longer prices (its pools fell below the floor) has its price
 * withheld (0, unknown) rather than kept: a stale price would still value its pools, holdings and
 * activities as if something deep priced it.
 */
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
  const graphOptions = {
    minLiquidityUsd: opts.minPoolLiquidityUsd,
    maxDeviation: opts.maxPriceDeviation,
    iterations: opts.graphIterations,
  };
  const fresh = priceGraph(anchors, edges, graphOptions).prices;
  const changed: string[] = [];
  const next = new Map(net.graphPrices);
  for (const [token, price] of next) {
    if (price === 0 || fresh.has(token) || !net.poolsOfToken.has(token)) continue;
    changed.push(token);
    next.set(token, 0);
  }
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
function activityOf(net: NetworkState, book: PriceBook, flow: Flow, time: number): { token: string; row: ActivityRow } | undefined {
  switch (flow.kind) {
    case SWAP:
    case LIQUIDITY: {
      const e = flow.e;
      const pool = net.pools.get(e.pool);
      if (!pool || net.tokens.get(e.pool)?.role !== 'lp') return undefined;
      if (flow.kind === LIQUIDITY) return { token: e.pool, row: liquidityActivity(book, flow.e, e.pool, pool.token0, pool.token1, time) };
      const state = net.poolStates.get(e.pool);
      const reserveIn = !state ? 0n : flow.e.tokenIn === pool.token0 ? state.reserve0 : state.reserve1;
      return {
        token: e.pool,
        row: swapActivity(
          book,
          flow.e,
          { lpAddress: e.pool, token0: pool.token0, reserveIn, lpSupply: net.ledger(e.pool).totalSupply },
          time,
        ),
      };
    }
    case VAULT: {
      const asset = net.tokens.get(flow.e.vault)?.underlying[0];
      return asset ? { token: flow.e.vault, row: vaultActivity(book, flow.e, asset, time) } : undefined;
    }
    case LENDING: {
      const aToken = net.aTokenByReserve.get(`${flow.e.market}|${flow.e.asset}`);
      return aToken ? { token: aToken, row: lendingActivity(book, flow.e, aToken, time) } : undefined;
    }
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
export function revalue(
  net: NetworkState,
  tokens: readonly string[],
  block: number,
  time: number,
  out: TokenState[],
  force: ReadonlySet<string> = new Set(),
): void {
  for (const address of tokens) {
    const state = valueToken(net, net.tokens.get(address)!, block, time);
    const prev = net.states.get(address);
    if (!prev || !sameState(prev, state) || force.has(address)) out.push(state);
    net.states.set(address, state);
  }
}

/** Applies the events of `block` (the walk's next ones) and records the states they change. */
function processBlock(
  net: NetworkState,
  walk: ChainWalk,
  block: number,
  time: number,
  opts: DeriveOptions,
  out: BatchOutput,
  changed: readonly string[] = [],
): void {
  const seeds = new Set<string>(changed);
  const flows: Flow[] = [];
  let poolsMoved = false;
  for (let ev = walk.event; ev !== undefined && ev.blockNumber === block; ev = walk.event) {
    const kind = walk.kind;
    switch (kind) {
      case TRANSFER:
        applyTransfer(net, ev as TransferEvent, seeds);
        break;
      case POOL: {
        const { pool, family, reserve0, reserve1, sqrtPriceX96, liquidity } = ev as PoolStateEvent;
        net.poolStates.set(pool, { shape: shapeOf(family), reserve0, reserve1, sqrtPriceX96, liquidity });
        const meta = net.pools.get(pool);
        if (meta) seeds.add(pool).add(meta.token0).add(meta.token1);
        poolsMoved = true;
        break;
      }
      case RATES:
        for (const a of applyReserveRates(net, ev as ReserveRatesEvent)) seeds.add(a);
        break;
      case LENDING:
        for (const a of applyLending(net, ev as LendingEvent)) seeds.add(a);
        flows.push({ kind, e: ev as LendingEvent });
        break;
      case SWAP:
        flows.push({ kind, e: ev as SwapEvent });
        break;
      case LIQUIDITY:
        flows.push({ kind, e: ev as LiquidityEvent });
        break;
      case VAULT:
        flows.push({ kind, e: ev as VaultFlowEvent });
        break;
    }
    walk.advance(kind);
  }
  if (poolsMoved) for (const a of updateGraphPrices(net, opts)) seeds.add(a);
  const book = priceBook(net);
  const active = new Set<string>();
  const swapVolumes = new BlockSwapVolumes();
  for (const flow of flows) {
    if (flow.kind === SWAP && net.pools.has(flow.e.pool)) swapVolumes.add(book, flow.e, (a) => net.tokens.get(a)?.role);
    const a = activityOf(net, book, flow, time);
    if (!a) continue;
    out.activities.push(a.row);
    active.add(a.token);
    seeds.add(a.token);
    net.volumeOf(a.token).add(time, a.row.volumeUsd);
    if (a.row.type === 'swap') net.swapWindow(a.token).add(time, a.row.volumeUsd);
  }
  // A token with swap volume gets a point in the block, as one with activity does: the candles of a
  // batch are those of the buckets its points touch, and their volumes must include the block's.
  if (swapVolumes.size > 0) {
    for (const { address, row } of swapVolumes.rows(net.network, block, time, book.keyOf)) {
      out.swapVolumes.push(row);
      net.volumeOf(address).add(time, row.volumeCents / 100);
      active.add(address);
      seeds.add(address);
    }
  }
  revalue(net, withDependents(net, seeds), block, time, out.points, active);
}

/** One batch's derivation, a block per step (so the pipeline can interleave it with I/O). */
class BatchDerivation {
  readonly out: BatchOutput = { points: [], activities: [], swapVolumes: [] };
  private readonly times: Map<number, number>;
  private readonly walk: ChainWalk;
  private seeded = false;

  constructor(
    private readonly net: NetworkState,
    private readonly batch: DecodedBatch,
    private readonly opts: DeriveOptions,
  ) {
    this.times = new Map(batch.blocks.map((b) => [b.number, b.timestamp]));
    this.walk = new ChainWalk(batch);
  }

  /** Derives the next block with events; false once there is none left. */
  step(): boolean {
    const next = this.walk.event;
    // Ledgers read at the first block (the start-block bootstrap) go before its events.
    const seeded = this.batch.ledgers?.length && !this.seeded ? applyLedgerSeeds(this.net, this.batch.ledgers) : [];
    this.seeded = true;
    if (seeded.length > 0 && (next === undefined || next.blockNumber > this.batch.fromBlock)) {
      revalue(this.net, withDependents(this.net, seeded), this.batch.fromBlock, this.timeOf(this.batch.fromBlock), this.out.points);
    }
    if (next === undefined) {
      this.net.asOfBlock = this.batch.toBlock;
      return false;
    }
    const block = next.blockNumber;
    processBlock(this.net, this.walk, block, this.timeOf(block), this.opts, this.out, block === this.batch.fromBlock ? seeded : []);
    return true;
  }

  private timeOf(block: number): number {
    const time = this.times.get(block);
    if (time === undefined)
      throw new Error(
        `batch ${this.batch.network} ${this.batch.fromBlock}-${this.batch.toBlock} has events in block ${block} but no header for it`,
      );
    return time;
  }
}

export function deriveBatch(net: NetworkState, batch: DecodedBatch, opts: DeriveOptions): BatchOutput {
  const d = new BatchDerivation(net, batch, opts);
  while (d.step());
  return d.out;
}

/** deriveBatch handing the event loop a turn between blocks when the time slice is used up. */
export async function deriveBatchSliced(
  net: NetworkState,
  batch: DecodedBatch,
  opts: DeriveOptions,
  slice: TimeSlice,
): Promise<BatchOutput> {
  const d = new BatchDerivation(net, batch, opts);
  while (d.step()) await slice.maybeYield();
  return d.out;
}
