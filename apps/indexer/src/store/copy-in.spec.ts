import { checkedCopyLine } from './copy-in';

describe('checkedCopyLine', () => {
  it('passes lines of hex, digits and tabs through', () => {
    expect(checkedCopyLine('ethereum\t12\t0\t0xab\t-5')).toBe('ethereum\t12\t0\t0xab\t-5');
  });

  it('refuses anything COPY text format would interpret (backslash, newline, quotes, spaces)', () => {
    for (const bad of ['a\\b', 'a\nb', "o'k", 'a b', 'a,b']) expect(() => checkedCopyLine(bad)).toThrow('cannot go into COPY');
  });
});
