import { pgArray } from './pg-array';

describe('pgArray', () => {
  it('writes bare literals for hex, integers and bigints', () => {
    expect(pgArray(['0xAb', 12, -3n, '1000000000000000000000'])).toBe('{0xAb,12,-3,1000000000000000000000}');
    expect(pgArray([])).toBe('{}');
  });

  it('refuses anything that would need quoting', () => {
    for (const bad of ['a,b', 'x y', '"q"', '{1}', 'NULL\\', '']) expect(() => pgArray([bad])).toThrow('bare array literal');
  });
});
