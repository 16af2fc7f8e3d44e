import { aTokenValuation, lpValuation, vaultSharePriceRaw, vaultValuation } from './composed';

describe('LP token', () => {
  const base = {
    reserve0: 100n * 10n ** 18n,
    reserve1: 300_000n * 10n ** 6n,
    decimals0: 18,
    decimals1: 6,
    price0: 3000,
    price1: 1,
    totalSupply: 5n * 10n ** 18n,
    decimals: 18,
  };
  it('is worth the reserves value over the supply', () => {
    const v = lpValuation(base);
    expect(v.liquidity).toBeCloseTo(600_000, 6);
    expect(v.price).toBeCloseTo(120_000, 6);
    // sqrt(100 * 300000) / 5
    expect(Number(v.pricePerShare)).toBeCloseTo(Math.sqrt(100 * 300_000) / 5, 9);
  });
  it('values the pool at twice the priced side when one side has no price', () => {
    expect(lpValuation({ ...base, price0: 0 }).liquidity).toBeCloseTo(600_000, 6);
  });
  it('has no price without supply', () => {
    expect(lpValuation({ ...base, totalSupply: 0n }).price).toBe(0);
  });
});

describe('ERC-4626 share', () => {
  it('follows OpenZeppelin convertToAssets with virtual shares and offset', () => {
    // 1,050,000 USDC for 1,000,000 shares (6 decimals each): 1e6 * (1.05e12 + 1) / (1e12 + 1), rounded down
    expect(vaultSharePriceRaw(1_050_000n * 10n ** 6n, 1_000_000n * 10n ** 6n, 6, 6)).toBe(1_049_999n);
    // empty vault: 1 share = 1 asset unit scaled
    expect(vaultSharePriceRaw(0n, 0n, 18, 18)).toBe(10n ** 18n);
    // 18-decimal shares over a 6-decimal asset: offset 12
    expect(vaultSharePriceRaw(2_000_000n, 10n ** 18n, 18, 6)).toBe((10n ** 18n * 2_000_001n) / (10n ** 18n + 10n ** 12n));
  });
  it('prices the share at pricePerShare x asset price, TVL = assets value', () => {
    const v = vaultValuation({
      totalAssets: 2_100n * 10n ** 18n,
      totalSupply: 2_000n * 10n ** 18n,
      decimals: 18,
      assetDecimals: 18,
      assetPrice: 3000,
    });
    expect(v.pricePerShare).toBe('1.049999999999999999');
    expect(v.price).toBeCloseTo(3150, 9);
    expect(v.liquidity).toBeCloseTo(6_300_000, 6);
  });
  it('uses a share price read at head when given', () => {
    expect(
      vaultValuation({ totalAssets: 0n, totalSupply: 0n, decimals: 6, assetDecimals: 6, assetPrice: 1, sharePriceRaw: 1_234_567n })
        .pricePerShare,
    ).toBe('1.234567');
  });
});

describe('aToken', () => {
  it('is its asset 1:1', () => {
    expect(aTokenValuation(5_000n * 10n ** 6n, 6, 1.0002)).toEqual({ price: 1.0002, liquidity: 5001, pricePerShare: '1' });
  });
});
