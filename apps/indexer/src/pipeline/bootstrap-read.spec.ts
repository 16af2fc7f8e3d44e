import { bitmapWords, listedPairs, MAX_BITMAP_WORDS } from './bootstrap-read';

describe('start-block bootstrap reads', () => {
  it('pairs every two listed tokens once, sorted as the factories sort them, without the native coin', () => {
    const [a, b, c] = ['0x' + 'c'.repeat(40), '0x' + 'a'.repeat(40), '0x' + 'B'.repeat(40)];
    expect(listedPairs([a, b, c, '0x0000000000000000000000000000000000000000', b])).toEqual([
      ['0x' + 'a'.repeat(40), '0x' + 'b'.repeat(40)],
      ['0x' + 'a'.repeat(40), '0x' + 'c'.repeat(40)],
      ['0x' + 'b'.repeat(40), '0x' + 'c'.repeat(40)],
    ]);
  });

  it('reads the whole tick range for a spacing of 10 or more', () => {
    const words = bitmapWords(-201_000, 10);
    expect(words).toHaveLength(694);
    expect(words[0]).toBe(-347);
    expect(words[words.length - 1]).toBe(346);
    expect(bitmapWords(5, 60)).toHaveLength(116);
  });

  it('for spacing 1: the words around the current tick, and the two words of the full-range ticks', () => {
    const words = bitmapWords(-276_300, 1);
    expect(words).toHaveLength(MAX_BITMAP_WORDS + 2);
    const centre = Math.floor(-276_300 / 256);
    expect(words).toContain(centre - MAX_BITMAP_WORDS / 2);
    expect(words).toContain(centre + MAX_BITMAP_WORDS / 2 - 1);
    expect(words).toContain(Math.floor(-887_272 / 256));
    expect(words).toContain(Math.floor(887_272 / 256));
  });
});
