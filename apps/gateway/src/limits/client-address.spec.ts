import { clientKeyOf } from './client-address';

describe('clientKeyOf', () => {
  it('keys IPv6 by prefix, in every notation', () => {
    for (const a of [
      '2001:db8:64:1::1',
      '2001:0db8:0064:0001:0000:0000:0000:0002',
      '2001:db8:64:1:ffff:ffff:ffff:ffff',
      '2001:db8:64:1::1%eth0',
      '2001:DB8:64:1::9',
    ])
      expect(clientKeyOf(a, 64)).toBe('2001:db8:64:1::/64');
    expect(clientKeyOf('2001:db8:64:2::1', 64)).toBe('2001:db8:64:2::/64');
    expect(clientKeyOf('2001:db8:64:2::1', 56)).toBe('2001:db8:64::/56');
    expect(clientKeyOf('2001:db8:64:2::1', 128)).toBe('2001:db8:64:2::1/128');
    expect(clientKeyOf('2001:db8:64:1:8000::1', 63)).toBe('2001:db8:64::/63');
  });

  it('keys IPv4 (and IPv4-mapped IPv6) by address', () => {
    expect(clientKeyOf('192.0.2.1', 64)).toBe('192.0.2.1');
    expect(clientKeyOf('::ffff:192.0.2.1', 64)).toBe('192.0.2.1');
    expect(clientKeyOf('::ffff:c000:201', 64)).toBe('192.0.2.1');
  });

  it('keeps anything else as it is', () => {
    expect(clientKeyOf('', 64)).toBe('');
    expect(clientKeyOf('not an address', 64)).toBe('not an address');
  });
});
