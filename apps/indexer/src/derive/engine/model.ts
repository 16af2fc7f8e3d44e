/** What the derivation keeps per network: registry metadata, pool states, token ledgers and states. */
import type { CandleState } from '../math/candles';
import { RAY } from '../math/ray';
import type { PoolFamily } from '../../model/registry.types';

/** How a token is valued, from its protocol module (libs/protocols tokenRoleOf). */
export type { TokenRole } from '@tokensvc/protocols';
import { type TokenRole, tokenRoleOf } from '@tokensvc/protocols';

export const roleOf = (family: string): TokenRole => tokenRoleOf(family);

/** Composed tokens are valued after what they are made of. */
export const ROLE_ORDER: Record<TokenRole, number> = { basic: 0, other: 0, native: 1, lp: 2, vault: 3, atoken: 3 };

export interface TokenMeta {
  key: string;
  address: string;
  family: string;
  platform: string;
  symbol: string;
  decimals: number;
  /** underlying token addresses (LP: token0, token1; vault and aToken: the asset) */
  underlying: string[];
  poolAddress: string | null;
  /** unix seconds the token was first seen on chain */
  createdTime: number;
  role: TokenRole;
}

export interface PoolMeta {
  address: string;
  family: PoolFamily;
  token0: string;
  token1: string;
  /** hundredths of a bip (3000 = 0.3 %) */
  fee: number;
}

/** The bookkeeping events update; valuations read it. */
export interface Ledger {
  totalSupply: bigint;
  /** supply held by the zero and dead addresses (minted to zero, sent to dead) */
  locked: bigint;
  /** vault: its asset balance (totalAssets); aToken: the asset it holds (available liquidity) */
  assets: bigint;
  /** Aave: scaled aToken supply and scaled variable debt, indexes and rates (ray) */
  scaledSupply: bigint;
  scaledDebt: bigint;
  liquidityIndex: bigint;
  borrowIndex: bigint;
  liquidityRate: bigint;
  borrowRate: bigint;
  /** vault convertToAssets(one share) read at head; 0 = compute from assets and supply */
  sharePriceRaw: bigint;
}

export function emptyLedger(): Ledger {
  return {
    totalSupply: 0n,
    locked: 0n,
    assets: 0n,
    scaledSupply: 0n,
    scaledDebt: 0n,
    liquidityIndex: RAY,
    borrowIndex: RAY,
    liquidityRate: 0n,
    borrowRate: 0n,
    sharePriceRaw: 0n,
  };
}

/** A token's full derived state at one block: one price_points row. */
export interface TokenState extends CandleState {
  tokenKey: string;
  blockNumber: number;
  time: number;
  price: number;
  ledger: Ledger;
}

const LEDGER_KEYS = Object.keys(emptyLedger()) as Array<keyof Ledger>;
/** totalSupply has its own column */
const AUX_KEYS = LEDGER_KEYS.filter((k) => k !== 'totalSupply');

/** Ledger <-> price_points.aux (decimal strings; defaults left out). */
export function ledgerToAux(l: Ledger): Record<string, string> {
  const d = emptyLedger();
  const out: Record<string, string> = {};
  for (const k of AUX_KEYS) if (l[k] !== d[k]) out[k] = l[k].toString();
  return out;
}

export function ledgerFromAux(aux: Record<string, unknown>, totalSupply: bigint): Ledger {
  const l = emptyLedger();
  for (const k of AUX_KEYS) {
    const v = aux[k];
    if (typeof v === 'string' && /^-?[0-9]+$/.test(v)) l[k] = BigInt(v);
  }
  l.totalSupply = totalSupply;
  return l;
}

/** Same state apart from the block it was seen at (nothing worth a new row). */
export function sameState(a: TokenState, b: TokenState): boolean {
  return (
    a.price === b.price &&
    a.liquidity === b.liquidity &&
    a.totalSupply === b.totalSupply &&
    a.totalBorrow === b.totalBorrow &&
    a.circulatingSupply === b.circulatingSupply &&
    a.pricePerShare === b.pricePerShare &&
    a.apy === b.apy &&
    a.borrowApy === b.borrowApy &&
    a.rewardApy === b.rewardApy &&
    a.reserves.length === b.reserves.length &&
    a.reserves.every((r, i) => r === b.reserves[i]) &&
    LEDGER_KEYS.every((k) => a.ledger[k] === b.ledger[k])
  );
}
