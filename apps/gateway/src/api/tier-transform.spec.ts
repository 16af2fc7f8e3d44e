import { PAID_METRIC_FIELDS, PUBLIC_METRIC_FIELDS } from '@tokensvc/api';
import { forTier, withoutPaidMetrics } from './tier-transform';

const metrics = Object.fromEntries([...PUBLIC_METRIC_FIELDS, ...PAID_METRIC_FIELDS].map((f) => [f, '1.5']));
const token = { key: 'ethereum:0x0000000000000000000000000000000000000000', symbol: 'ETH', price: 3000, metrics };

describe('tier transform of token records', () => {
  it('drops exactly the paid-only metrics fields and keeps the record otherwise', () => {
    const out = withoutPaidMetrics(token);
    expect(Object.keys(out.metrics).sort()).toEqual([...PUBLIC_METRIC_FIELDS].sort());
    expect(out).toMatchObject({ key: token.key, symbol: 'ETH', price: 3000 });
    // The input is not changed (the same object may be cached by a service).
    expect(Object.keys(token.metrics)).toHaveLength(PUBLIC_METRIC_FIELDS.length + PAID_METRIC_FIELDS.length);
  });

  it('applies to the token lists of a response for callers without paid data only', () => {
    const body = { totalItems: 2, tokens: [token, token], other: [token] };
    const free = forTier(body, ['tokens'], false);
    expect(free.tokens.every((t) => !('price1d' in t.metrics) && 'apy' in t.metrics)).toBe(true);
    expect('price1d' in free.other[0]!.metrics).toBe(true);
    expect(forTier(body, ['tokens'], true)).toBe(body);
  });

  it('leaves odd shapes alone', () => {
    expect(withoutPaidMetrics({ metrics: null })).toEqual({ metrics: null });
    expect(forTier(null, ['tokens'], false)).toBeNull();
    expect(forTier({ tokens: 'x' }, ['tokens'], false)).toEqual({ tokens: 'x' });
  });
});
