import fc from 'fast-check';
import { convertToAssets, convertToShares, previewDeposit, previewMint, previewRedeem, previewWithdraw } from './erc4626-math';

describe('ERC-4626 maths (OpenZeppelin 5 virtual shares)', () => {
  it('converts 1:1 in an empty vault and by the share price after yield', () => {
    expect(previewDeposit({ totalAssets: 0n, totalSupply: 0n }, 1_000n)).toBe(1_000n);
    // 1,000 shares backed by 1,100 assets: (assets * 1001) / 1101
    const v = { totalAssets: 1_100n, totalSupply: 1_000n };
    expect(previewDeposit(v, 110n)).toBe((110n * 1_001n) / 1_101n);
    expect(previewRedeem(v, 100n)).toBe((100n * 1_101n) / 1_001n);
    expect(convertToShares({ totalAssets: 0n, totalSupply: 0n, decimalsOffset: 6 }, 5n)).toBe(5_000_000n);
  });

  it('rounds in the vault’s favour: mint/withdraw round up, deposit/redeem round down', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        (totalAssets, totalSupply, x) => {
          const v = { totalAssets, totalSupply };
          expect(previewMint(v, x) >= convertToAssets(v, x)).toBe(true);
          expect(previewWithdraw(v, x) >= convertToShares(v, x)).toBe(true);
          expect(previewRedeem(v, previewDeposit(v, x)) <= x).toBe(true);
          expect(previewMint(v, previewDeposit(v, x)) <= x).toBe(true);
        },
      ),
    );
  });
});
