/**
 * A protocol module: everything the services need to know about one protocol family, in one
 * folder, registered once (registry.ts). Code outside the modules never switches on a family
 * name: it asks the family's module. Its facets so far:
 * - `indexer`: the events it decodes (declared signatures next to their handlers), what its
 *   discovery events create, and what it knows from configuration alone;
 * - `category`, and `tokenKind`: the kind of token the family issues (how an order enters and
 *   leaves it);
 * - `dex` (families whose pools route swaps): the routing library's pool from a stored or
 *   published pool state, the gas of a swap, and the executor calls that swap;
 * - `issuer` (families that issue a composed token): the calls and gas of the actions that enter
 *   and leave it. What those actions do to balances is the kind's maths (the quote service's
 *   executor simulator), shared by every family of that kind.
 * The maths belongs to the pool's shape (libs/routing), shared by every protocol of that shape.
 */
import type { ExecutorCall } from '@tokensvc/contracts';
import type { ComposedActions, ComposedKind } from './actions';
import type { ProtocolAdapter } from './indexing/port';
import type { PlatformCategory, PlatformFamily, PlatformOption, PoolDescription } from '@tokensvc/domain';
import type { Pool, PoolShape } from '@tokensvc/routing';

/**
 * How an order enters and leaves a token: `native` and `basic` by swapping; the composed kinds by
 * their protocol's own actions (burn and add liquidity, redeem and deposit, withdraw and supply).
 */
export type TokenKind = 'native' | 'basic' | 'v2-lp' | 'vault' | 'lending';

/** A pool's state as the indexer stores it (`pools` row) and publishes it (PoolStateChanged). */
export interface PoolRow extends PoolDescription {
  tickSpacing: number | null;
  reserve0: string;
  reserve1: string;
  sqrtPriceX96: string | null;
  liquidity: string | null;
  tick: number | null;
}

/** One swap the executor runs: `bps` of its balance of `tokenIn` through `pool`. */
export interface SwapHop {
  pool: string;
  platform: string;
  fee: number;
  tokenIn: string;
  tokenOut: string;
  bps: number;
  /** the pool's tick spacing (concentrated pools): part of the key of a pool that is an id inside a singleton */
  tickSpacing?: number;
}

/** What the calls of an order are built against. */
export interface CallEnv {
  network: string;
  executor: string;
  recipient: string;
  deadline: bigint;
  /** contract of `role` on platform `slug`; refuses (a 400 naming both) when it has none */
  platformAddress(slug: string, role: string): string;
  /** every contract of platform `slug` by role (lowercase), for a module that chooses among them */
  platformAddresses(slug: string): Readonly<Record<string, string>> | undefined;
  /** refuses the order with `message` (the caller's 400) */
  refuse(message: string): never;
}

export interface DexFacet {
  /** the invariant of the family's pools: which routing maths prices and simulates them */
  shape: PoolShape;
  /**
   * true when the family's pools are ids inside one singleton contract (Uniswap V4's PoolManager)
   * rather than contracts: a pool has no logs of its own (its manager's events name it) and holds
   * no token balances (its module counts its reserves from those events)
   */
  singleton?: boolean;
  /** the routing pool of a stored or published state; undefined while it cannot be routed (not initialised) */
  toPool(row: PoolRow): Pool | undefined;
  /** gas of one swap through the Router's executor (approval set and reset included) */
  swapGas(ticksCrossed: number): number;
  /** the executor calls of one swap */
  swapCalls(hop: SwapHop, env: CallEnv): ExecutorCall[];
}

/** One way in or out of a composed token: the executor calls and their gas (measured on anvil). */
export interface ActionFacet<A> {
  gas: number;
  calls(action: A, env: CallEnv): ExecutorCall[];
}

/** How the executor enters and leaves the composed token of kind `K` a family issues. */
export interface IssuerFacet<K extends ComposedKind = ComposedKind> {
  kind: K;
  enter: ActionFacet<ComposedActions[K]['enter']>;
  exit: ActionFacet<ComposedActions[K]['exit']>;
}

/** An issuer of any one kind (the union, so a module's facet is checked against its kind). */
export type AnyIssuerFacet = { [K in ComposedKind]: IssuerFacet<K> }[ComposedKind];

/** One option a family's platform entries may set, with its check. */
export interface OptionSpec {
  /** what it sets, for the error message */
  describe: string;
  /** undefined when `value` is acceptable, else what is wrong with it */
  check(value: PlatformOption): string | undefined;
}

export interface ProtocolModule<F extends PlatformFamily = PlatformFamily> {
  family: F;
  category: PlatformCategory;
  /** the kind of a token of this family with these underlying tokens */
  tokenKind(underlying: readonly string[]): TokenKind;
  /** present when the family's pools route swaps */
  dex: DexFacet | null;
  /** present when the family issues a composed token (the kind `tokenKind` gives its tokens) */
  issuer: AnyIssuerFacet | null;
  /** the indexer's decoders, discovery and configuration seed for the family's contracts */
  indexer: ProtocolAdapter;
  /**
   * How a holder's balance of the family's tokens is known: `transfers` (the sum of its Transfer
   * events), or `live` (its balanceOf grows without Transfer events, as an aToken's does through
   * the liquidity index: read with eth_call).
   */
  balances: 'transfers' | 'live';
  /**
   * The options a platform entry of the family may set (so a near-fork stays data: another fee,
   * ...), each checked at start (`checkPlatformOptions`); an option the family does not know is
   * an error, not ignored.
   */
  options: Readonly<Record<string, OptionSpec>>;
}
