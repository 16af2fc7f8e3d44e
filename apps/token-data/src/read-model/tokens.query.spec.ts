import { ListTokensRequest } from '@tokensvc/messages';
import { buildTokensQuery, SORT_COLUMNS } from './tokens.query';

const req = (over: Partial<ListTokensRequest>): ListTokensRequest => ({ ...ListTokensRequest.fromJSON({}), ...over });

describe('buildTokensQuery', () => {
  it('binds every filter as a parameter and ANDs filter types', () => {
    const q = buildTokensQuery(
      req({
        search: "O'Re%_il",
        ids: ['ethereum:0xa'],
        platforms: ['uniswap-v2', 'sushiswap'],
        networks: ['base'],
        minLiquidity: 5,
        maxLiquidity: 9,
        minApy: 1,
        maxApy: 2,
        tags: ['x'],
        isPortable: true,
        isVerified: false,
      }),
    );
    expect(q.where.split(' AND ')).toHaveLength(11);
    expect(q.params).toEqual(["%o're\\%\\_il%", ['ethereum:0xa'], ['uniswap-v2', 'sushiswap'], ['base'], 5, 9, 1, 2, ['x'], true, false]);
    expect(q.where).not.toContain("O'Re");
  });

  it('defaults maxApy to 1e6 and orders by key', () => {
    const q = buildTokensQuery(req({}));
    expect(q.params).toEqual([1e6]);
    expect(q.orderBy).toBe('t.key ASC');
  });

  it.each(Object.entries(SORT_COLUMNS))('sorts by %s with key as tie-breaker in the same direction', (sortBy, column) => {
    const q = buildTokensQuery(req({ sortBy, sortDirection: 'desc' }));
    expect(q.orderBy.startsWith(`${column} DESC`)).toBe(true);
    expect(q.orderBy.endsWith('t.key DESC')).toBe(true);
  });

  it('refuses a sort column it does not know (the gateway validates first)', () => {
    expect(() => buildTokensQuery(req({ sortBy: 'drop table' }))).toThrow('unknown sortBy');
  });
});
