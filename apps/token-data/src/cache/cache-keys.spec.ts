import { AccountRequest, ListTokensRequest, TokenHistoryRequest } from '@tokensvc/messages';
import { accountKey, historyKey, listTokensKey } from './cache-keys';

const list = (o: Partial<ListTokensRequest>): ListTokensRequest => ({ ...ListTokensRequest.fromJSON({}), ...o });

describe('cache keys', () => {
  it('list: same key for reordered/any-case equivalents, different for any other parameter', () => {
    const a = listTokensKey(list({ ids: ['base:0xAB', 'ethereum:0x01'], networks: ['base', 'ethereum'], search: 'Usd' }));
    expect(listTokensKey(list({ ids: ['ethereum:0x01', 'base:0xab'], networks: ['ethereum', 'base'], search: 'uSD' }))).toBe(a);
    for (const o of [
      { page: 1 },
      { limit: 10 },
      { sortBy: 'price' },
      { sortDirection: 'desc' },
      { minLiquidity: 1 },
      { isVerified: true },
      { tags: ['x'] },
      { platforms: ['aave-v3'] },
    ]) {
      expect(listTokensKey(list({ ids: ['base:0xab', 'ethereum:0x01'], networks: ['base', 'ethereum'], search: 'usd', ...o }))).not.toBe(a);
    }
  });

  it('history and account: ids/owners in any case share a key', () => {
    const h = (o: Partial<TokenHistoryRequest>): string => historyKey({ ...TokenHistoryRequest.fromJSON({}), ...o });
    expect(h({ id: 'base:0xAB', resolution: '1h' })).toBe(h({ id: 'base:0xab', resolution: '1h' }));
    expect(h({ id: 'base:0xab', resolution: '1h' })).not.toBe(h({ id: 'base:0xab', resolution: '1d' }));
    const a = (o: Partial<AccountRequest>): string => accountKey({ ...AccountRequest.fromJSON({}), ...o });
    expect(a({ owner: '0xAB', networks: ['base', 'ethereum'] })).toBe(a({ owner: '0xab', networks: ['ethereum', 'base'] }));
    expect(a({ owner: '0xab', networks: ['base'] })).not.toBe(a({ owner: '0xab', networks: ['ethereum'] }));
  });

  it('repeated list elements (kept by the gateway) share the entry of the list without them', () => {
    expect(
      listTokensKey(list({ ids: ['base:0xab', 'base:0xAB'], networks: ['base', 'base'], tags: ['x', 'x'], platforms: ['p', 'p'] })),
    ).toBe(listTokensKey(list({ ids: ['base:0xab'], networks: ['base'], tags: ['x'], platforms: ['p'] })));
    const a = (o: Partial<AccountRequest>): string => accountKey({ ...AccountRequest.fromJSON({}), ...o });
    expect(a({ owner: '0xab', networks: ['ethereum', 'ethereum'] })).toBe(a({ owner: '0xab', networks: ['ethereum'] }));
  });
});
