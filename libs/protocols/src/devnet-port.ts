/**
 * DEVNET ONLY: the port through which a protocol module deploys and seeds its family on the local
 * devnet (libs/devnet implements it; nothing in production runs it). libs/protocols may not import
 * the devnet (tooling), so each family's `devnet.ts` is written against these operations only:
 * deploy a contract from an artifact, queue a transaction, read views, mine, the network's tokens,
 * prices and accounts, a seeded PRNG, and the manifest entries it returns.
 */
import { Interface as InterfaceCtor, type Interface, type InterfaceAbi, type Result } from 'ethers';
import type { Network, PlatformFamily } from '@tokensvc/domain';

/** A token of the devnet's manifest. */
export interface DevnetToken {
  symbol: string;
  name: string;
  decimals: number;
  address: string;
  /** the USD price the simulated market ends at (history wanders around it) */
  priceUsd: number;
}

export interface DevnetPool {
  address: string;
  /** e.g. "WETH/USDC" in token0/token1 order */
  pair: string;
  token0: string;
  token1: string;
  /** in hundredths of a bip like Uniswap V3 (V2 pools: 3000 = 0.3 %) */
  fee: number;
  /** V3 only */
  tickSpacing?: number;
}

export interface DevnetVault {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  asset: string;
  assetSymbol: string;
}

export interface DevnetMarket {
  asset: string;
  symbol: string;
  aToken: string;
  variableDebtToken: string;
  stableDebtToken: string;
  priceFeed: string;
  interestRateStrategy: string;
}

/** A platform of the devnet's manifest: what a family's deployment returns. */
export interface DevnetPlatform<F extends PlatformFamily = PlatformFamily> {
  slug: string;
  name: string;
  family: F;
  /** contracts by role (see the family's devnet.ts for its roles) */
  addresses: Record<string, string | string[]>;
  pools: DevnetPool[];
  vaults: DevnetVault[];
  markets: DevnetMarket[];
}

export interface DevnetTxOptions {
  value?: bigint;
  gas?: bigint;
  label?: string;
}

export interface DevnetRead {
  to: string;
  iface: Interface;
  fn: string;
  args?: readonly unknown[];
}

/** The chain being built: transactions are queued and land in the next mined block. */
export interface DevnetChain {
  network: Network;
  /** anvil account that deploys and owns everything on this network */
  deployer: string;
  /** queues a contract creation; returns its address (known before the block is mined) */
  deploy(from: string, artifact: { abi: InterfaceAbi; bytecode: string }, args: readonly unknown[], label: string, gas?: bigint): string;
  /** queues a call */
  call(from: string, to: string, iface: Interface, fn: string, args: readonly unknown[], opts?: DevnetTxOptions): void;
  /** eth_call of view functions against the latest block, in order */
  read(calls: readonly DevnetRead[]): Promise<Result[]>;
  /** mines the queued transactions into the next block (`stepSeconds` after the last) */
  mine(stepSeconds?: number): Promise<void>;
  /** the network's symbol for a symbol of the devnet's tables (long-tail TAIL1/TAIL2, aliases) */
  resolve(symbol: string): string;
  log(line: string): void;
}

/** What a family's deployment is given besides the chain. */
export interface DevnetDeployEnv {
  tokens: readonly DevnetToken[];
  /** USD prices at the start of the history, where pools and feeds begin */
  priceOf(symbol: string): number;
}

/** The seeded PRNG of the network's history (the same seed writes the same history). */
export interface DevnetRng {
  next(): number;
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  logUniform(min: number, max: number): number;
}

/** The seeder's model of what each account may spend (credits are lower bounds). */
export interface DevnetPortfolio {
  spendable(account: string, token: string): bigint;
  credit(account: string, token: string, amount: bigint): void;
  debit(account: string, token: string, amount: bigint): void;
  /** debits up to `wanted` (at most `maxShare` of the balance); 0 when below `min` */
  debitUpTo(account: string, token: string, wanted: bigint, maxShare: number, min?: bigint): bigint;
}

/** The world being seeded: the chain, its tokens, prices, accounts and their portfolios. */
export interface DevnetWorld {
  chain: DevnetChain;
  rng: DevnetRng;
  portfolio: DevnetPortfolio;
  /** the three liquidity providers, the arbitrage bots (addresses) */
  accounts: { liquidityProviders: readonly string[]; arbitrageurs: readonly string[] };
  tokens: readonly DevnetToken[];
  token(symbol: string): DevnetToken;
  tokenAt(address: string): DevnetToken;
  /** USD price of a token at a simulation step */
  price(symbol: string, step: number): number;
  platforms<F extends PlatformFamily>(family: F): DevnetPlatform<F>[];
  platform<F extends PlatformFamily>(family: F): DevnetPlatform<F>;
  /** queues approve(max) the first time `owner` uses `spender` for `token`, as wallets do */
  approveOnce(owner: string, token: string, spender: string): void;
}

/** Tokens an account needs before the seeding starts, in USD. */
export interface DevnetGrant {
  to: string;
  symbol: string;
  usd: number;
}

/** Far-future deadline: router deadlines are irrelevant on a chain whose clock the devnet drives. */
export const DEVNET_NO_DEADLINE = 4_102_444_800n;

export function devnetToken(tokens: readonly DevnetToken[], symbol: string): DevnetToken {
  const token = tokens.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`unknown token ${symbol}`);
  return token;
}

export function devnetPlatformAddress(platform: DevnetPlatform, role: string): string {
  const address = platform.addresses[role];
  if (typeof address !== 'string') throw new Error(`platform ${platform.slug} has no single ${role} address`);
  return address;
}

/**
 * A family's devnet facet: how the local devnet deploys and seeds it, driven by the world plan
 * `S` (libs/devnet's config). libs/devnet runs each step for every family, in DEVNET_ORDER.
 */
export interface DevnetFacet<F extends PlatformFamily, S> {
  family: F;
  /** contracts queued with the tokens: they land in the network's first deploy block */
  deploy?(chain: DevnetChain, plan: S, env: DevnetDeployEnv): DevnetPlatform<F>[];
  /** contracts deployed after that block (they may mine blocks of their own) */
  deployMined?(chain: DevnetChain, plan: S, env: DevnetDeployEnv): Promise<DevnetPlatform<F>[]>;
  /**
   * contracts appended after the order Router, in a block of their own (so no earlier address
   * moves): the roles they add to the family's platforms, by slug
   */
  deployLate?(
    chain: DevnetChain,
    plan: S,
    env: DevnetDeployEnv,
    platforms: readonly DevnetPlatform[],
  ): Record<string, Record<string, string>>;
  /**
   * initial liquidity: the tokens its liquidity provider needs, then the transactions that add it
   * (queued for the next block; a facet that must see some land first, such as native ETH unwrapped
   * from a WETH grant, may mine blocks of its own)
   */
  liquidity?: {
    grants(world: DevnetWorld, plan: S): DevnetGrant[];
    add(world: DevnetWorld, plan: S): void | Promise<void>;
  };
  /** present when the family's pools are traded and arbitraged during the history */
  pools?: DevnetPoolFacet;
  /** what the family does during the history (started once, before the first block) */
  history?(world: DevnetWorld, plan: S): DevnetHistory;
}

/** One pool of the history, as the arbitrage bots read it every block. */
export interface DevnetPoolState {
  ref: { platform: DevnetPlatform; pool: DevnetPool };
  /** constant product: reserves */
  reserve0?: bigint;
  reserve1?: bigint;
  /** concentrated liquidity: sqrtPriceX96 and active liquidity */
  sqrtPriceX96?: bigint;
  liquidity?: bigint;
}

/** A trade that moves a pool to a target price. */
export interface DevnetArbTrade {
  zeroForOne: boolean;
  amountIn: bigint;
}

export interface DevnetPoolFacet {
  /** the views that read a pool's state, in one batch with every other pool's (`platform`: its platform, whose contract may hold it) */
  reads(pool: DevnetPool, platform: DevnetPlatform): DevnetRead[];
  /** the state from those views' results */
  state(ref: DevnetPoolState['ref'], results: readonly Result[]): DevnetPoolState;
  /** the pool's raw price (token1 units per token0 unit) and the trade that moves it to `target` */
  tradeToPrice(state: DevnetPoolState, target: number): { current: number; trade: DevnetArbTrade };
  /** queues the arbitrage bot's swap (approval included) of `amountIn` toward `target` */
  arbSwap(
    world: DevnetWorld,
    state: DevnetPoolState,
    swap: { bot: string; tokenIn: DevnetToken; tokenOut: DevnetToken; amountIn: bigint; target: number },
  ): void;
}

/** A user action of the simulated history: queues its transactions, false when it did nothing. */
export type DevnetAction = (trader: string, pools: readonly DevnetPoolState[], step: number) => boolean;

export interface DevnetHistory {
  /** upkeep before the users act in each block (`heartbeat`: the day boundary) */
  upkeep?(step: number, heartbeat: boolean): Promise<void>;
  /**
   * the family's user actions with their weights in the simulator's weighted table and their
   * place in it (`slot`, the order the table has always had, so a seed writes the same history)
   */
  actions?: ReadonlyArray<{ slot: number; weight: number; run: DevnetAction }>;
}

/** An ethers Interface built on first use (artifacts are read only when the devnet needs them). */
export function lazyInterface(load: () => InterfaceAbi): () => Interface {
  let iface: Interface | undefined;
  return () => (iface ??= new InterfaceCtor(load()));
}

/** The portfolio's key for native ETH (not a token address). */
export const DEVNET_NATIVE = 'native';
