import fc from 'fast-check';
import { CopyWriter, copyField } from './copy-writer';

const text = (w: CopyWriter): string => Buffer.concat(w.finish()).toString('utf8');

describe('CopyWriter', () => {
  it('writes rows of tab-separated fields, one line each', () => {
    const w = new CopyWriter();
    w.plain('ethereum').plain(12).plain(0).plain('0xab').plain(-5n).endRow();
    w.text(null).float(1.5).float(null).time(1_700_000_000).endRow();
    expect(text(w)).toBe('ethereum\t12\t0\t0xab\t-5\n\\N\t1.5\t\\N\t2023-11-14T22:13:20.000Z\n');
    expect(w.rows).toBe(2);
  });

  it('refuses plain fields COPY text format would interpret (backslash, line break, tab, quotes, spaces)', () => {
    for (const bad of ['a\\b', 'a\nb', 'a\tb', "o'k", 'a b', 'a,b', 'é'])
      expect(() => new CopyWriter().plain(bad)).toThrow('cannot go into COPY');
  });

  it('escapes text fields, including non-ASCII ones', () => {
    const w = new CopyWriter();
    w.text('a\\b\tc\nd\re').text('{"symbol":"Ω\\t"}').endRow();
    expect(text(w)).toBe('a\\\\b\\tc\\nd\\re\t{"symbol":"Ω\\\\t"}\n');
  });

  it('keeps rows intact across buffer chunks', () => {
    const w = new CopyWriter();
    const value = 'f'.repeat(1000);
    for (let i = 0; i < 3000; i++) w.plain(i).plain(value).endRow();
    const chunks = w.finish();
    expect(chunks.length).toBeGreaterThan(1);
    const lines = Buffer.concat(chunks).toString('latin1').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toEqual(Array.from({ length: 3000 }, (_, i) => `${i}\t${value}`));
  });

  it('writes numbers and bigints as String() prints them, and repeated fields byte for byte the same', () => {
    const hexes = ['0x' + 'ab'.repeat(32), '0x' + 'cd'.repeat(20), 'ethereum'];
    const texts = ['ethereum:0x' + 'ef'.repeat(20), 'with\ttab and \\ backslash of some length', 'Ωmega token symbol longer than 16'];
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.nat(),
            fc.integer({ min: -1e6, max: 1e6 }),
            fc.bigInt({ min: -(1n << 256n), max: 1n << 256n }),
            fc.constantFrom(...hexes),
            fc.constantFrom(...texts),
          ),
          { maxLength: 50 },
        ),
        (rows) => {
          const w = new CopyWriter();
          for (const [n, i, b, h, t] of rows) w.plain(n).plain(i).plain(b).plain(h).text(t).endRow();
          expect(text(w)).toBe(rows.map(([n, i, b, h, t]) => `${n}\t${i}\t${b}\t${h}\t${copyField(t)}\n`).join(''));
        },
      ),
    );
  });

  it('refuses numbers whose String() is not plain (fractions, exponents)', () => {
    for (const bad of [1.5, 1e21, -0.5]) expect(() => new CopyWriter().plain(bad)).toThrow('cannot go into COPY');
    expect(() => new CopyWriter().plain('0x' + 'ab'.repeat(30) + ' x')).toThrow('cannot go into COPY');
  });

  it('refuses a time that is not a whole second', () => {
    expect(() => new CopyWriter().time(1.5)).toThrow('not a whole second');
  });
});
