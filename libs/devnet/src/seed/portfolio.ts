/**
 * What each simulated account can safely spend. Debits are exact; credits from swaps are
 * estimated low, so the model never lets an account spend tokens it might not have and the
 * simulated transactions do not revert however the pools move.
 */
import { DEVNET_NATIVE } from '@tokensvc/protocols/devnet';
export const NATIVE = DEVNET_NATIVE;

export class Portfolio {
  private readonly balances = new Map<string, Map<string, bigint>>();

  private book(account: string): Map<string, bigint> {
    const key = account.toLowerCase();
    let b = this.balances.get(key);
    if (!b) {
      b = new Map();
      this.balances.set(key, b);
    }
    return b;
  }

  /** `token` is a lowercase-insensitive address or NATIVE */
  spendable(account: string, token: string): bigint {
    return this.book(account).get(token.toLowerCase()) ?? 0n;
  }

  credit(account: string, token: string, amount: bigint): void {
    if (amount < 0n) throw new Error('negative credit');
    const b = this.book(account);
    b.set(token.toLowerCase(), (b.get(token.toLowerCase()) ?? 0n) + amount);
  }

  debit(account: string, token: string, amount: bigint): void {
    const have = this.spendable(account, token);
    if (amount < 0n || amount > have) throw new Error(`${account} cannot spend ${amount} of ${token} (has ${have})`);
    this.book(account).set(token.toLowerCase(), have - amount);
  }

  /** Replaces the estimate with a balance read from the chain. */
  set(account: string, token: string, amount: bigint): void {
    this.book(account).set(token.toLowerCase(), amount < 0n ? 0n : amount);
  }

  /**
   * Debits `amount`, or `fraction` of the balance when that is smaller; returns what was debited.
   * Debits nothing and returns 0 when the result would be below `min`.
   */
  debitUpTo(account: string, token: string, amount: bigint, fraction = 0.5, min = 1n): bigint {
    const cap = (this.spendable(account, token) * BigInt(Math.floor(fraction * 10_000))) / 10_000n;
    const take = amount < cap ? amount : cap;
    if (take < min || take <= 0n) return 0n;
    this.debit(account, token, take);
    return take;
  }
}
