import { classifyAddress, parseIpv6 } from './address-classifier';

describe('webhook address classifier', () => {
  const verdict = (ip: string): string => {
    const v = classifyAddress(ip);
    return v.public ? 'public' : v.reason;
  };

  it.each([
    ['1.1.1.1'],
    ['8.8.8.8'],
    ['93.184.216.34'],
    ['100.63.255.255'],
    ['100.128.0.0'],
    ['172.15.255.255'],
    ['172.32.0.0'],
    ['192.169.0.1'],
    ['198.17.255.255'],
    ['198.20.0.0'],
    ['223.255.255.255'],
    ['2606:4700:4700::1111'],
    ['2001:4860:4860::8888'],
    ['2a00:1450:4001:80b::200e'],
    ['64:ff9b::808:808'],
    ['2002:808:808::1'],
  ])('accepts the public address %s', (ip) => {
    expect(verdict(ip)).toBe('public');
  });

  it.each([
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.1', 'RFC 1918'],
    ['10.255.255.255', 'RFC 1918'],
    ['172.16.0.1', 'RFC 1918'],
    ['172.31.255.254', 'RFC 1918'],
    ['192.168.1.1', 'RFC 1918'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['192.0.0.8', 'IETF'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['192.88.99.1', '6to4 relay'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
  ])('refuses the IPv4 address %s (%s)', (ip, why) => {
    expect(verdict(ip)).toContain(why);
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::ffff:169.254.169.254', 'IPv4-mapped'],
    ['::ffff:0:10.0.0.1', 'IPv4-translated'],
    ['::10.0.0.1', 'IPv4-compatible'],
    ['::8.8.8.8', 'IPv4-compatible'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:0:4136:e378::1', 'IETF protocol assignments'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['5f00::1', 'SRv6'],
    ['64:ff9b::7f00:1', 'NAT64 of a non-public IPv4 address (loopback)'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:a00:1::1', '6to4 of a non-public IPv4 address (private'],
    ['4000::1', 'outside IPv6 global unicast'],
    ['::2', 'IPv4-compatible'],
  ])('refuses the IPv6 address %s (%s)', (ip, why) => {
    expect(verdict(ip)).toContain(why);
  });

  it('refuses what is not an IP literal, and zone indexes', () => {
    for (const x of [
      '',
      'localhost',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '01.2.3.4',
      '0x7f.0.0.1',
      '2130706433',
      '[::1]',
      'fe80::1%eth0',
      '2001:4860::1%1',
      ':::1',
    ]) {
      expect(classifyAddress(x).public).toBe(false);
    }
  });

  it('parses IPv6 forms to the same bytes', () => {
    expect(parseIpv6('::ffff:127.0.0.1')).toEqual(parseIpv6('::ffff:7f00:1'));
    expect(parseIpv6('2001:db8::1')).toEqual([0x20, 0x01, 0x0d, 0xb8, ...new Array(11).fill(0), 1]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect(parseIpv6('1::')).toEqual([0, 1, ...new Array(14).fill(0)]);
  });
});
