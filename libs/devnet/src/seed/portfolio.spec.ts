import { NATIVE, Portfolio } from './portfolio';

describe('Portfolio', () => {
  const A = '0xAbC0000000000000000000000000000000000001';
  const T = '0xDEF0000000000000000000000000000000000002';

  it('tracks credits and debits case-insensitively', () => {
    const p = new Portfolio();
    p.credit(A, T, 100n);
    p.debit(A.toLowerCase(), T.toLowerCase(), 40n);
    expect(p.spendable(A, T)).toBe(60n);
    expect(p.spendable(A, NATIVE)).toBe(0n);
  });

  it('refuses to overspend', () => {
    const p = new Portfolio();
    p.credit(A, T, 10n);
    expect(() => p.debit(A, T, 11n)).toThrow();
    expect(() => p.credit(A, T, -1n)).toThrow();
  });

  it('caps debits at a fraction of the balance', () => {
    const p = new Portfolio();
    p.credit(A, T, 1000n);
    expect(p.debitUpTo(A, T, 10_000n, 0.5)).toBe(500n);
    expect(p.debitUpTo(A, T, 100n, 0.5)).toBe(100n);
    expect(p.spendable(A, T)).toBe(400n);
    expect(p.debitUpTo(A, NATIVE, 5n)).toBe(0n);
    expect(p.debitUpTo(A, T, 100n, 0.5, 150n)).toBe(0n);
    expect(p.spendable(A, T)).toBe(400n);
  });

  it('accepts balances read from the chain', () => {
    const p = new Portfolio();
    p.credit(A, T, 5n);
    p.set(A, T, 42n);
    expect(p.spendable(A, T)).toBe(42n);
    p.set(A, T, -1n);
    expect(p.spendable(A, T)).toBe(0n);
  });
});
