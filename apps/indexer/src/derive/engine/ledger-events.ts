/**
 * Events that move a token's ledger: ERC-20 mints/burns (supply), transfers of a vault's or
 * aToken's asset to/from it (its assets), Aave rate updates and flows (scaled supply and debt).
 * Each returns the token addresses whose ledger changed.
 */
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { LendingEvent, ReserveRatesEvent, TransferEvent } from '../../pipeline/decoded-batch';
import { rayDiv } from '../math/ray';
import type { NetworkState } from './network-state';

export function applyTransfer(net: NetworkState, e: TransferEvent): string[] {
  const changed: string[] = [];
  const meta = net.tokens.get(e.token);
  // aToken supply comes from scaled balances (its Transfer amounts include accrued interest).
  if (meta && meta.role !== 'atoken' && meta.role !== 'native') {
    const l = net.ledger(e.token);
    const before = [l.totalSupply, l.locked];
    if (e.from === ZERO_ADDRESS) l.totalSupply += e.value;
    else if (e.to === ZERO_ADDRESS) l.totalSupply -= e.value;
    // Minted straight to the zero address (Uniswap V2's MINIMUM_LIQUIDITY) or sent to a dead address.
    if (net.lockedHolders.has(e.to) && !(e.to === ZERO_ADDRESS && e.from !== ZERO_ADDRESS)) l.locked += e.value;
    if (net.lockedHolders.has(e.from) && e.from !== ZERO_ADDRESS) l.locked -= e.value;
    if (l.totalSupply !== before[0] || l.locked !== before[1]) {
      l.sharePriceRaw = 0n;
      changed.push(e.token);
    }
  }
  for (const [holder, sign] of [[e.to, 1n], [e.from, -1n]] as const) {
    const h = net.assetHolders.get(holder);
    if (h && h.asset === e.token && e.from !== e.to) {
      const l = net.ledger(h.token);
      l.assets += sign * e.value;
      l.sharePriceRaw = 0n;
      changed.push(h.token);
    }
  }
  return changed;
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
