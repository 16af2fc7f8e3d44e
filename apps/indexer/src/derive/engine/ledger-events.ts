/**
 * Events that move a token's ledger: ERC-20 mints/burns (supply), transfers of a vault's or
 * aToken's asset to/from it (its assets), Aave rate updates and flows (scaled supply and debt).
 * Each reports the token addresses whose ledger changed.
 */
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { LedgerSeed, LendingEvent, ReserveRatesEvent, TransferEvent } from '../../model/decoded-batch';
import { rayDiv } from '../math/ray';
import type { NetworkState } from './network-state';

/** A local copy: the library's re-exported binding is a getter call on every use (once per transfer here). */
const ZERO = ZERO_ADDRESS;

/** Adds the addresses whose ledger a transfer changed to `changed` (the hottest path: no allocations). */
export function applyTransfer(net: NetworkState, e: TransferEvent, changed: Set<string>): void {
  const meta = net.tokens.get(e.token);
  // aToken supply comes from scaled balances (its Transfer amounts include accrued interest).
  if (meta && meta.role !== 'atoken' && meta.role !== 'native') {
    const l = net.ledger(e.token);
    const supplyBefore = l.totalSupply;
    const lockedBefore = l.locked;
    if (e.from === ZERO) l.totalSupply += e.value;
    else if (e.to === ZERO) l.totalSupply -= e.value;
    // Minted straight to the zero address (Uniswap V2's MINIMUM_LIQUIDITY) or sent to a dead address.
    if (net.lockedHolders.has(e.to) && !(e.to === ZERO && e.from !== ZERO)) l.locked += e.value;
    if (net.lockedHolders.has(e.from) && e.from !== ZERO) l.locked -= e.value;
    if (l.totalSupply !== supplyBefore || l.locked !== lockedBefore) {
      l.sharePriceRaw = 0n;
      changed.add(e.token);
    }
  }
  if (e.from === e.to) return;
  // The token's asset moving into (+) or out of (-) a vault / aToken that holds it.
  assetMove(net, e, e.to, e.value, changed);
  assetMove(net, e, e.from, -e.value, changed);
}

function assetMove(net: NetworkState, e: TransferEvent, holder: string, delta: bigint, changed: Set<string>): void {
  const h = net.assetHolders.get(holder);
  if (!h || h.asset !== e.token) return;
  const l = net.ledger(h.token);
  l.assets += delta;
  l.sharePriceRaw = 0n;
  changed.add(h.token);
}

export function applyReserveRates(net: NetworkState, e: ReserveRatesEvent): string[] {
  const aToken = net.aTokenByReserve.get(`${e.market}|${e.asset}`);
  if (!aToken) return [];
  const l = net.ledger(aToken);
  l.liquidityRate = e.liquidityRate;
  l.borrowRate = e.variableBorrowRate;
  l.liquidityIndex = e.liquidityIndex;
  l.borrowIndex = e.variableBorrowIndex;
  return [aToken];
}

/**
 * Aave mints/burns scaled balances at the index its ReserveDataUpdated (same transaction, earlier
 * log) reported: scaled = amount.rayDiv(index). Borrows are variable-rate (stable debt is ignored).
 */
export function applyLending(net: NetworkState, e: LendingEvent): string[] {
  const aToken = net.aTokenByReserve.get(`${e.market}|${e.asset}`);
  if (!aToken) return [];
  const l = net.ledger(aToken);
  const clamp = (x: bigint): bigint => (x < 0n ? 0n : x);
  switch (e.kind) {
    case 'deposit':
      l.scaledSupply += rayDiv(e.amount, l.liquidityIndex);
      break;
    case 'withdraw':
      l.scaledSupply = clamp(l.scaledSupply - rayDiv(e.amount, l.liquidityIndex));
      break;
    case 'borrow':
      l.scaledDebt += rayDiv(e.amount, l.borrowIndex);
      break;
    case 'repay':
      l.scaledDebt = clamp(l.scaledDebt - rayDiv(e.amount, l.borrowIndex));
      break;
  }
  return [aToken];
}

/** Ledgers read on chain (the start-block bootstrap) replace what events built; returns the tokens set. */
export function applyLedgerSeeds(net: NetworkState, seeds: readonly LedgerSeed[]): string[] {
  const out: string[] = [];
  for (const s of seeds) {
    if (!net.tokens.has(s.token)) continue;
    const l = net.ledger(s.token);
    l.totalSupply = s.totalSupply;
    l.locked = 0n;
    for (const [holder, balance] of s.lockedBalances) if (net.lockedHolders.has(holder)) l.locked += balance;
    if (s.assets !== undefined) l.assets = s.assets;
    if (s.aave) Object.assign(l, s.aave);
    l.sharePriceRaw = 0n;
    out.push(s.token);
  }
  return out;
}
