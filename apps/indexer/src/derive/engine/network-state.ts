/**
 * The in-memory working set of one network: valid as of `asOfBlock` (the last block whose
 * derived rows were written). A batch starting elsewhere, a rollback or an error discards it and
 * it is reloaded from the database.
 */
import { NETWORK_INFO, ZERO_ADDRESS, type Network } from '@tokensvc/domain';
import type { DecodedBatch } from '../../model/decoded-batch';
import type { DeriveOptions } from '../derive-options';
import { DAY_SECONDS } from '../math/candles';
import type { PoolSnapshot } from '../math/pool-price';
import { TimedAmounts, TrailingSeries, TrailingSum } from '../math/windows';
import { emptyLedger, type Ledger, type PoolMeta, type TokenMeta, type TokenState } from './model';

export const WEEK_SECONDS = 7 * DAY_SECONDS;

/** `map`'s value at `key`, made and stored first when there is none. */
function entry<V>(map: Map<string, V>, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

export class NetworkState {
  asOfBlock: number;
  readonly tokens = new Map<string, TokenMeta>();
  readonly pools = new Map<string, PoolMeta>();
  readonly poolStates = new Map<string, PoolSnapshot>();
  readonly ledgers = new Map<string, Ledger>();
  /** last written state per token */
  readonly states = new Map<string, TokenState>();
  /** last USD prices out of the price graph (kept when a later graph cannot price a token) */
  graphPrices = new Map<string, number>();
  /** trailing 7-day swap volume (USD) per LP token, for its fee APY */
  readonly swapVolume7d = new Map<string, TrailingSum>();
  /** share price history (assets per share) per vault, for its APY */
  readonly sharePrices = new Map<string, TrailingSeries>();
  /** activity volume (USD) per platform token, swap volume per basic and native token, since a day before the batch, for candle volumes */
  readonly volumes = new Map<string, TimedAmounts>();
  /** the `now` every token's volumes and paid metrics were last computed at (unknown after a load) */
  metricsTime: number | undefined;
  /** wall-clock ms of that computation */
  metricsAt = 0;
  /** keys of tokens with a new state (or new rows) since then */
  readonly metricsTouched = new Set<string>();

  // ---- indexes over the metadata, rebuilt by reindex() ----
  anchors = new Set<string>();
  wrappedNative: string | undefined;
  /** underlying address -> composed tokens made of it */
  dependents = new Map<string, string[]>();
  /** every pool, by address */
  poolList: PoolMeta[] = [];
  /** token address -> pools it is in */
  poolsOfToken = new Map<string, string[]>();
  /** contract holding an asset for a composed token (vault, aToken) -> that token */
  assetHolders = new Map<string, { token: string; asset: string }>();
  /** `${market}|${asset}` -> aToken */
  aTokenByReserve = new Map<string, string>();
  readonly lockedHolders: ReadonlySet<string>;
  /** addresses (and `${market}|${asset}` reserves) events referred to that are not registered */
  readonly unregistered = new Set<string>();

  constructor(
    readonly network: Network,
    asOfBlock: number,
    private readonly options: DeriveOptions,
  ) {
    this.asOfBlock = asOfBlock;
    this.lockedHolders = new Set([ZERO_ADDRESS, ...options.deadAddresses.map((a) => a.toLowerCase())]);
  }

  ledger(address: string): Ledger {
    return entry(this.ledgers, address, emptyLedger);
  }

  swapWindow(address: string): TrailingSum {
    return entry(this.swapVolume7d, address, () => new TrailingSum(WEEK_SECONDS));
  }

  volumeOf(address: string): TimedAmounts {
    return entry(this.volumes, address, () => new TimedAmounts());
  }

  /** Candle volumes by token key. */
  volumesByKey(): (tokenKey: string) => TimedAmounts | undefined {
    return (key) => this.volumes.get(key.slice(key.indexOf(':') + 1));
  }

  /** Drops activity amounts no later candle can need (older than a day before `time`). */
  pruneVolumes(time: number): void {
    for (const v of this.volumes.values()) v.prune(time - DAY_SECONDS);
  }

  sharePriceSeries(address: string): TrailingSeries {
    return entry(this.sharePrices, address, () => new TrailingSeries());
  }

  /** USD price of a token now: the graph's for tokens it prices, else the last state's. */
  priceOf(address: string): number {
    const meta = this.tokens.get(address);
    if (meta && (meta.role === 'basic' || meta.role === 'other')) {
      const p = this.graphPrices.get(address);
      if (p !== undefined) return p;
    }
    return this.states.get(address)?.price ?? 0;
  }

  reindex(): void {
    const stables = new Set(this.options.stablecoinSymbols.map((s) => s.toUpperCase()));
    const wrappedSymbol = `W${NETWORK_INFO[this.network].nativeSymbol}`.toUpperCase();
    this.anchors = new Set();
    this.wrappedNative = undefined;
    this.dependents = new Map();
    this.assetHolders = new Map();
    this.aTokenByReserve = new Map();
    this.poolsOfToken = new Map();
    const push = <K, V>(m: Map<K, V[]>, k: K, v: V): void => {
      const list = m.get(k);
      if (list) list.push(v);
      else m.set(k, [v]);
    };
    for (const t of this.tokens.values()) {
      const symbol = t.symbol.toUpperCase();
      if (t.role === 'basic' && stables.has(symbol)) this.anchors.add(t.address);
      if (t.role === 'basic' && symbol === wrappedSymbol && this.wrappedNative === undefined) this.wrappedNative = t.address;
      for (const u of t.underlying) push(this.dependents, u, t.address);
      const asset = t.underlying[0];
      if ((t.role === 'vault' || t.role === 'atoken') && asset) this.assetHolders.set(t.address, { token: t.address, asset });
      if (t.role === 'atoken' && asset && t.poolAddress) this.aTokenByReserve.set(`${t.poolAddress}|${asset}`, t.address);
    }
    const native = this.tokens.get(ZERO_ADDRESS);
    if (native && this.wrappedNative) push(this.dependents, this.wrappedNative, native.address);
    // Address order, so sums over pools do not depend on the order they were loaded in.
    this.poolList = [...this.pools.values()].sort((a, b) => (a.address < b.address ? -1 : 1));
    for (const p of this.poolList) {
      push(this.poolsOfToken, p.token0, p.address);
      push(this.poolsOfToken, p.token1, p.address);
    }
  }
}

/**
 * What a batch refers to that the working set does not know (and has not already found
 * unregistered): token addresses or `${market}|${asset}` Aave reserves, and pool addresses.
 */
export function unknownReferences(net: NetworkState, batch: DecodedBatch): { tokens: Set<string>; pools: string[] } {
  const unknownToken = (address: string): boolean => !net.tokens.has(address) && !net.unregistered.has(address);
  const unknownReserve = (reserve: string): boolean => !net.aTokenByReserve.has(reserve) && !net.unregistered.has(reserve);
  // Loops rather than map/filter chains: a batch has 100k+ events, most of them known.
  const tokens = new Set<string>();
  for (const k of batch.newTokens) {
    // announced tokens are looked up even if once found unregistered (they are registered now)
    const a = k.slice(k.indexOf(':') + 1).toLowerCase();
    if (!net.tokens.has(a)) tokens.add(a);
  }
  for (const e of batch.transfers) if (unknownToken(e.token)) tokens.add(e.token);
  for (const e of batch.vaultFlows) if (unknownToken(e.vault)) tokens.add(e.vault);
  for (const e of batch.lending) {
    const reserve = `${e.market}|${e.asset}`;
    if (unknownReserve(reserve)) tokens.add(reserve);
  }
  const pools = new Set<string>();
  for (const list of [batch.poolStates, batch.swaps, batch.liquidity])
    for (const e of list) if (!net.pools.has(e.pool) && !net.unregistered.has(e.pool)) pools.add(e.pool);
  return { tokens, pools: [...pools] };
}
