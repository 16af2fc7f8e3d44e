import { ServiceError } from '@tokensvc/transport';
import { bucketStart, checkFrom, RESOLUTION_SECONDS } from './history.usecase';

describe('history from-bucketing', () => {
  const t = Date.UTC(2026, 5, 15, 13, 47, 31) / 1000;
  it.each([
    ['15m', Date.UTC(2026, 5, 15, 13, 45) / 1000],
    ['30m', Date.UTC(2026, 5, 15, 13, 30) / 1000],
    ['1h', Date.UTC(2026, 5, 15, 13) / 1000],
    ['4h', Date.UTC(2026, 5, 15, 12) / 1000],
    ['1d', Date.UTC(2026, 5, 15) / 1000],
  ])('%s truncates down to the UTC bucket start', (res, expected) => {
    expect(bucketStart(t, res)).toBe(expected);
    // every second of one bucket maps to the same start
    expect(bucketStart(expected + RESOLUTION_SECONDS[res]! - 1, res)).toBe(expected);
  });

  it('rejects from older than a year or in the future with the spec message', () => {
    const now = 2_000_000_000;
    expect(() => checkFrom(now - 366 * 86400, now)).toThrow(/must be newer than one year ago/);
    expect(() => checkFrom(now + 10, now)).toThrow(ServiceError);
    expect(() => checkFrom(now - 364 * 86400, now)).not.toThrow();
  });
});
