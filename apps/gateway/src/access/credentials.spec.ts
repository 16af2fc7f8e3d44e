import { credentialFrom, safeEqual } from './credentials';

describe('credentials', () => {
  it('reads `Bearer <key>` in any case and the bare key', () => {
    expect(credentialFrom('Bearer abc')).toBe('abc');
    expect(credentialFrom('bearer   abc ')).toBe('abc');
    expect(credentialFrom('abc')).toBe('abc');
    expect(credentialFrom('  ')).toBeUndefined();
    expect(credentialFrom(undefined)).toBeUndefined();
    expect(credentialFrom(['a', 'b'])).toBeUndefined();
  });

  it('compares secrets of any length without throwing', () => {
    expect(safeEqual('secret', 'secret')).toBe(true);
    expect(safeEqual('secret', 'secreT')).toBe(false);
    expect(safeEqual('', 'secret')).toBe(false);
    expect(safeEqual('s'.repeat(10_000), 'secret')).toBe(false);
  });
});
