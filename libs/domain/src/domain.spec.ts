import {
  decimalString,
  fromUnits,
  InvalidAmountError,
  NETWORKS,
  NETWORK_INFO,
  networkByChainId,
  normaliseTokenKey,
  parseAmount,
  parsePositiveAmount,
  parseTokenKey,
  toUnits,
  ZERO_ADDRESS,
} from './index';

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
    expect(normaliseTokenKey('Ethereum:0xA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48')).toBe(
      'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    );
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

describe('decimalString', () => {
  it('is the shortest decimal that reads back as the same double, without exponent', () => {
    const cases: [number, string][] = [
      [3000.123456789, '3000.123456789'],
      [1e-7, '0.0000001'],
      [1.5e-7, '0.00000015'],
      [-2.5e-10, '-0.00000000025'],
      [0.0000123456789012345, '0.0000123456789012345'],
      [1e22, '10000000000000000000000'],
      [1.2345e21, '1234500000000000000000'],
      [-2.5, '-2.5'],
      [0.1 + 0.2, '0.30000000000000004'],
    ];
    for (const [x, text] of cases) {
      expect(decimalString(x)).toBe(text);
      expect(Number(decimalString(x))).toBe(x);
    }
  });
  it('gives 0 for zero and non-finite values', () => {
    expect([decimalString(0), decimalString(-0), decimalString(Number.NaN), decimalString(Infinity)]).toEqual(['0', '0', '0', '0']);
  });
});

describe('parsePositiveAmount', () => {
  it('refuses zero with the name of the amount, and what parseAmount refuses', () => {
    expect(parsePositiveAmount('15', 'inputAmount')).toBe(15n);
    expect(() => parsePositiveAmount('0', 'inputAmount')).toThrow(new InvalidAmountError('inputAmount must be greater than zero'));
    expect(() => parsePositiveAmount('-1', 'inputAmount')).toThrow(InvalidAmountError);
  });
});
