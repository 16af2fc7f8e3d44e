/**
 * A token's state at one block from the network's working set: price, TVL, supplies, reserves,
 * pricePerShare and yields, by role (see README.md for the definitions).
 */
import { feeApy, growthApy } from '../math/apy';
import { aTokenValuation, lpValuation, vaultValuation, type Valuation } from '../math/composed';
import { poolQuote } from '../math/pool-price';
import { rayMul, rayRateToApy } from '../math/ray';
import type { Ledger, TokenMeta, TokenState } from './model';
import { WEEK_SECONDS, type NetworkState } from './network-state';

interface Parts extends Valuation {
  totalSupply: bigint;
  totalBorrow: bigint;
  circulatingSupply: bigint;
  reserves: bigint[];
  apy: number;
  borrowApy: number;
}

const NO_YIELD = { totalBorrow: 0n, reserves: [] as bigint[], apy: 0, borrowApy: 0 };

function circulating(l: Ledger): bigint {
  return l.totalSupply > l.locked ? l.totalSupply - l.locked : 0n;
}

/**
 * The value of a token's side of every pool it is in, at `price`. Without a price (only thin pools,
 * below the graph's floor), the value of the other sides instead: what its pools hold against it,
 * so its liquidity shows why it has none.
 */
function poolsLiquidity(net: NetworkState, address: string, price: number): number {
  let liquidity = 0;
  for (const poolAddress of net.poolsOfToken.get(address) ?? []) {
    const pool = net.pools.get(poolAddress);
    const state = net.poolStates.get(poolAddress);
    const d0 = pool && net.tokens.get(pool.token0)?.decimals;
    const d1 = pool && net.tokens.get(pool.token1)?.decimals;
    if (!pool || !state || d0 === undefined || d1 === undefined) continue;
    const q = poolQuote(state, d0, d1);
    if (!q) continue;
    const isToken0 = pool.token0 === address;
    if (price > 0) liquidity += (isToken0 ? q.depth0 : q.depth1) * price;
    else liquidity += isToken0 ? q.depth1 * net.priceOf(pool.token1) : q.depth0 * net.priceOf(pool.token0);
  }
  return liquidity;
}

/** Basic token: graph price; liquidity from its pools (poolsLiquidity). */
function basicParts(net: NetworkState, meta: TokenMeta, l: Ledger): Parts {
  const price = net.priceOf(meta.address);
  const liquidity = poolsLiquidity(net, meta.address, price);
  return { ...NO_YIELD, price, liquidity, pricePerShare: '0', totalSupply: l.totalSupply, circulatingSupply: circulating(l) };
}

function lpParts(net: NetworkState, meta: TokenMeta, l: Ledger, time: number): Parts {
  const poolAddress = meta.poolAddress ?? meta.address;
  const pool = net.pools.get(poolAddress);
  const state = net.poolStates.get(poolAddress);
  if (!pool || !state)
    return { ...NO_YIELD, price: 0, liquidity: 0, pricePerShare: '0', totalSupply: l.totalSupply, circulatingSupply: circulating(l) };
  const v = lpValuation({
    reserve0: state.reserve0,
    reserve1: state.reserve1,
    decimals0: net.tokens.get(pool.token0)?.decimals ?? 18,
    decimals1: net.tokens.get(pool.token1)?.decimals ?? 18,
    price0: net.priceOf(pool.token0),
    price1: net.priceOf(pool.token1),
    totalSupply: l.totalSupply,
    decimals: meta.decimals,
  });
  const span = Math.min(WEEK_SECONDS, time - meta.createdTime);
  const apy = feeApy(net.swapWindow(meta.address).sumAt(time), pool.fee / 1e6, v.liquidity, span);
  return {
    ...v,
    totalSupply: l.totalSupply,
    circulatingSupply: circulating(l),
    totalBorrow: 0n,
    reserves: [state.reserve0, state.reserve1],
    apy,
    borrowApy: 0,
  };
}

/** Vault: share price growth over the last 7 days (or since its first share price), annualised. */
function vaultParts(net: NetworkState, meta: TokenMeta, l: Ledger, time: number): Parts {
  const asset = meta.underlying[0] ?? '';
  const assetDecimals = net.tokens.get(asset)?.decimals ?? meta.decimals;
  const { sharePriceRaw: _raw, ...v } = vaultValuation({
    totalAssets: l.assets,
    totalSupply: l.totalSupply,
    decimals: meta.decimals,
    assetDecimals,
    assetPrice: net.priceOf(asset),
    sharePriceRaw: l.sharePriceRaw > 0n ? l.sharePriceRaw : undefined,
  });
  const series = net.sharePriceSeries(meta.address);
  // Parsed from the decimal string, like a share price reloaded from price_points.
  const pps = Number(v.pricePerShare);
  series.push(time, pps);
  const weekAgo = series.valueAt(time - WEEK_SECONDS);
  const first = series.first();
  const apy = weekAgo !== undefined ? growthApy(weekAgo, pps, WEEK_SECONDS) : first ? growthApy(first.value, pps, time - first.time) : 0;
  series.prune(time - WEEK_SECONDS);
  return { ...v, totalSupply: l.totalSupply, circulatingSupply: circulating(l), totalBorrow: 0n, reserves: [l.assets], apy, borrowApy: 0 };
}

/** aToken: supply and debt from scaled balances x indexes; yields from the market's rates. */
function aTokenParts(net: NetworkState, meta: TokenMeta, l: Ledger): Parts {
  const totalSupply = rayMul(l.scaledSupply, l.liquidityIndex);
  l.totalSupply = totalSupply;
  const v = aTokenValuation(totalSupply, meta.decimals, net.priceOf(meta.underlying[0] ?? ''));
  return {
    ...v,
    totalSupply,
    circulatingSupply: totalSupply,
    totalBorrow: rayMul(l.scaledDebt, l.borrowIndex),
    reserves: [l.assets],
    apy: rayRateToApy(l.liquidityRate),
    borrowApy: rayRateToApy(l.borrowRate),
  };
}

/** The native coin: the wrapped native's price; liquidity = its side of the pools that hold it as a currency (Uniswap V4's native pools). */
function nativeParts(net: NetworkState, meta: TokenMeta): Parts {
  const price = net.wrappedNative ? net.priceOf(net.wrappedNative) : 0;
  return {
    ...NO_YIELD,
    price,
    liquidity: poolsLiquidity(net, meta.address, price),
    pricePerShare: '0',
    totalSupply: 0n,
    circulatingSupply: 0n,
  };
}

export function valueToken(net: NetworkState, meta: TokenMeta, blockNumber: number, time: number): TokenState {
  const l = net.ledger(meta.address);
  let parts: Parts;
  switch (meta.role) {
    case 'basic':
    case 'other':
      parts = basicParts(net, meta, l);
      break;
    case 'native':
      parts = nativeParts(net, meta);
      break;
    case 'lp':
      parts = lpParts(net, meta, l, time);
      break;
    case 'vault':
      parts = vaultParts(net, meta, l, time);
      break;
    case 'atoken':
      parts = aTokenParts(net, meta, l);
      break;
  }
  // Spelled out: a spread into a literal with more fields is a slow generic copy in V8.
  return {
    tokenKey: meta.key,
    blockNumber,
    time,
    price: parts.price,
    liquidity: parts.liquidity,
    pricePerShare: parts.pricePerShare,
    totalSupply: parts.totalSupply,
    totalBorrow: parts.totalBorrow,
    circulatingSupply: parts.circulatingSupply,
    reserves: parts.reserves,
    apy: parts.apy,
    baseApy: parts.apy,
    rewardApy: 0,
    borrowApy: parts.borrowApy,
    baseBorrowApy: parts.borrowApy,
    ledger: { ...l },
  };
}
