import { balanceOfCall, LIVE_BALANCE_FAMILIES, requestedNetworks } from './account.usecase';

describe('account live balances', () => {
  it('encodes balanceOf(owner) calldata: selector plus the left-padded lowercase address', () => {
    expect(balanceOfCall('0xAbCdEf0000000000000000000000000000001234')).toBe(
      `0x70a08231${'0'.repeat(24)}abcdef0000000000000000000000000000001234`,
    );
    expect(balanceOfCall('0xAbCdEf0000000000000000000000000000001234')).toHaveLength(2 + 8 + 64);
  });

  it('reads aTokens live (interest accrues without Transfer events), other families from the index', () => {
    expect(LIVE_BALANCE_FAMILIES.has('aave-v3')).toBe(true);
    expect(LIVE_BALANCE_FAMILIES.has('basic')).toBe(false);
    expect(LIVE_BALANCE_FAMILIES.has('uniswap-v2')).toBe(false);
  });

  it('reads each named network once (a repeated network would double its balances), or every served one', () => {
    expect(requestedNetworks(['ethereum', 'base', 'ethereum'], ['ethereum', 'base', 'arbitrum'])).toEqual(['ethereum', 'base']);
    expect(requestedNetworks([], ['ethereum', 'base'])).toEqual(['ethereum', 'base']);
    expect(requestedNetworks(['nope', 'base'], ['ethereum'])).toEqual(['base']);
  });
});
