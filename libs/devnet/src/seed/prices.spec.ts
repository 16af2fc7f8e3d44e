import type { TokenSpec } from '../config';
import { PriceBook } from './prices';

const SPECS: TokenSpec[] = [
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, priceUsd: 3000, dailyVol: 0.03 },
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, priceUsd: 1, dailyVol: 0 },
];

describe('PriceBook', () => {
  const book = new PriceBook(SPECS, 720, 24, 'seed');

  it('ends every path at the configured price', () => {
    expect(book.price('WETH', 720)).toBeCloseTo(3000, 6);
    expect(book.price('USDC', 720)).toBeCloseTo(1, 9);
  });

  it('moves volatile prices but keeps them in a plausible band', () => {
    const path = Array.from({ length: 721 }, (_, i) => book.price('WETH', i));
    expect(new Set(path.map((p) => p.toFixed(2))).size).toBeGreaterThan(500);
    for (const p of path) {
      expect(p).toBeGreaterThan(1500);
      expect(p).toBeLessThan(6000);
    }
    for (let i = 0; i <= 720; i++) expect(Math.abs(book.price('USDC', i) - 1)).toBeLessThan(0.02);
  });

  it('is deterministic per seed and differs between seeds', () => {
    const again = new PriceBook(SPECS, 720, 24, 'seed');
    const other = new PriceBook(SPECS, 720, 24, 'other');
    expect(again.price('WETH', 100)).toBe(book.price('WETH', 100));
    expect(other.price('WETH', 100)).not.toBe(book.price('WETH', 100));
  });

  it('clamps steps and rejects unknown symbols', () => {
    expect(book.price('WETH', -5)).toBe(book.price('WETH', 0));
    expect(book.price('WETH', 10_000)).toBe(book.price('WETH', 720));
    expect(() => book.price('NOPE', 0)).toThrow();
    expect(book.at(3)('WETH')).toBe(book.price('WETH', 3));
  });
});
