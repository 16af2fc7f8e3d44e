import { HDNodeWallet, computeAddress } from 'ethers';
import { ANVIL_ACCOUNTS, DEFAULT_SEED, TEST_ACCOUNTS, deriveAccount, deriveAccounts } from './accounts';

describe('accounts', () => {
  it('lists anvil default accounts 5-9 as test accounts with matching keys', () => {
    expect(TEST_ACCOUNTS).toHaveLength(5);
    expect(TEST_ACCOUNTS[0]).toBe(ANVIL_ACCOUNTS[5]);
    for (const [i, a] of ANVIL_ACCOUNTS.entries()) {
      expect(computeAddress(a.privateKey)).toBe(a.address);
      if (i === 0 || i === 9) {
        const derived = HDNodeWallet.fromPhrase(
          'test test test test test test test test test test test junk',
          undefined,
          `m/44'/60'/0'/0/${i}`,
        );
        expect(derived.address).toBe(a.address);
      }
    }
  });

  it('derives the same accounts from the same seed, distinct per role and index', () => {
    expect(deriveAccount(DEFAULT_SEED, 'trader', 3)).toEqual(deriveAccount(DEFAULT_SEED, 'trader', 3));
    const all = [
      ...deriveAccounts(DEFAULT_SEED, 'trader', 10),
      ...deriveAccounts(DEFAULT_SEED, 'lp', 3),
      deriveAccount('other', 'trader', 0),
    ];
    expect(new Set(all.map((a) => a.address)).size).toBe(all.length);
    for (const a of all) expect(computeAddress(a.privateKey)).toBe(a.address);
    expect(all.some((a) => ANVIL_ACCOUNTS.some((d) => d.address === a.address))).toBe(false);
  });
});
