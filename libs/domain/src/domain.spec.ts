import { fromUnits, NETWORKS, NETWORK_INFO, networkByChainId, normaliseTokenKey, parseAmount, parseTokenKey, toUnits, ZERO_ADDRESS } from './index';

describe('network registry', () => {
  it('covers the 12 networks of the spec with unique chain ids', () => {
    expect(NETWORKS).toHaveLength(12);
    const ids = NETWORKS.map((n) => NETWORK_INFO[n].chainId);
    expect(new Set(ids).size).toBe(12);
    expect(networkByChainId(42161)).toBe('arbitrum');
    expect(networkByChainId(8453)).toBe('base');
  });
});

describe('token keys', () => {
  it('normalises case of network and address', () => {
    expect(normaliseTokenKey('Ethereum:0xA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48')).toBe('ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
  });
  it('treats the zero address as native', () => {
    expect(parseTokenKey(`base:${ZERO_ADDRESS}`)).toEqual({ network: 'base', address: ZERO_ADDRESS });
  });
  it.each([
    ['ethereum', 'missing ":"'],
    ['mars:0x0000000000000000000000000000000000000000', 'unknown network "mars"'],
    ['ethereum:0x123', 'address must be 0x followed by 40 hex'],
  ])('rejects %s with a reason', (input, reason) => {
    expect(() => parseTokenKey(input)).toThrow(reason);
  });
});

describe('amounts', () => {
  it('parses base units exactly, beyond 2^53', () => {
    expect(parseAmount('123456789012345678901234567890')).toBe(123456789012345678901234567890n);
  });
  it.each(['-1', '1.5', '1e18', '', ' 1', '0x10'])('rejects %p', (s) => {
    expect(() => parseAmount(s, 'inputAmount')).toThrow('inputAmount must be a non-negative integer');
  });
  it('rejects values above uint256', () => {
    expect(() => parseAmount((1n << 256n).toString())).toThrow('uint256');
  });
  it('converts units both ways', () => {
    expect(fromUnits('1.5', 6)).toBe(1_500_000n);
    expect(toUnits(1_500_000n, 6)).toBe(1.5);
    expect(() => fromUnits('1.1234567', 6)).toThrow('more than 6 decimals');
  });
});
