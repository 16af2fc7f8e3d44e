import fc from 'fast-check';
import type { AmountRecord } from '../engine/activities';
import { amountsJson } from './activities.repo';

describe('amountsJson', () => {
  it('is JSON.stringify, byte for byte (quotes, backslashes, control characters, non-ASCII, lone surrogates)', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0000', '\u007f', '\ud800', 'é', 'a', ':') }),
    );
    const record: fc.Arbitrary<AmountRecord> = fc
      .record({ key: text, symbol: text, amount: fc.bigInt().map(String), amountUsd: text, account: fc.option(text, { nil: undefined }) })
      .map(({ account, ...r }) => (account === undefined ? r : { ...r, account }));
    fc.assert(fc.property(fc.array(record, { maxLength: 4 }), (amounts) => expect(amountsJson(amounts)).toBe(JSON.stringify(amounts))));
  });

  it('falls back to JSON.stringify for other shapes', () => {
    const odd = [
      { symbol: 'X', key: 'k', amount: '1', amountUsd: '2' },
      { key: 'k', symbol: 'X', amount: '1', amountUsd: '2', account: undefined },
      { key: 'k', symbol: 'X', amount: 1, amountUsd: '2' },
    ] as unknown as AmountRecord[];
    for (const r of odd) expect(amountsJson([r])).toBe(JSON.stringify([r]));
  });
});
