import { bucketStart, foldCandles, mergeCandle, RESOLUTIONS, withVolumes, type CandlePoint } from './candles';
import { TimedAmounts } from './windows';

const utc = (iso: string): number => Date.parse(iso) / 1000;
const state = {
  liquidity: 100,
  reserves: [1n, 2n],
  totalSupply: 10n,
  totalBorrow: 0n,
  circulatingSupply: 10n,
  pricePerShare: '1',
  apy: 1,
  baseApy: 1,
  rewardApy: 0,
  borrowApy: 0,
  baseBorrowApy: 0,
};
const point = (time: number, blockNumber: number, price: number, tokenKey = 'ethereum:0xa'): CandlePoint => ({
  ...state,
  tokenKey,
  time,
  blockNumber,
  price,
});

describe('candle buckets', () => {
  it.each([
    ['15m', '2024-03-10T13:44:59Z', '2024-03-10T13:30:00Z'],
    ['30m', '2024-03-10T13:44:59Z', '2024-03-10T13:30:00Z'],
    ['1h', '2024-03-10T13:44:59Z', '2024-03-10T13:00:00Z'],
    ['4h', '2024-03-10T13:44:59Z', '2024-03-10T12:00:00Z'],
    ['4h', '2024-03-10T03:59:59Z', '2024-03-10T00:00:00Z'],
    ['1d', '2024-03-10T23:59:59Z', '2024-03-10T00:00:00Z'],
    ['1d', '2024-03-11T00:00:00Z', '2024-03-11T00:00:00Z'],
    ['15m', '2024-12-31T23:59:59Z', '2024-12-31T23:45:00Z'],
  ] as const)('%s bucket of %s starts at %s (UTC)', (resolution, at, start) => {
    expect(bucketStart(utc(at), resolution)).toBe(utc(start));
  });
});

describe('folding points into candles', () => {
  it('takes open/high/low/close in block order and the last state', () => {
    const t = utc('2024-03-10T23:50:00Z');
    const points = [point(t + 60, 3, 12), point(t, 1, 10), point(t + 30, 2, 15), { ...point(t + 120, 4, 8), liquidity: 55 }];
    const [c] = foldCandles(points, ['1h']);
    expect(c).toMatchObject({ bucket: utc('2024-03-10T23:00:00Z'), open: 10, high: 15, low: 8, close: 8, blockNumber: 4, liquidity: 55 });
  });
  it('splits at the UTC day boundary and per token, for every resolution', () => {
    const t = utc('2024-03-10T23:59:00Z');
    const points = [point(t, 1, 1), point(t + 120, 2, 2), point(t, 1, 5, 'ethereum:0xb')];
    const candles = foldCandles(points);
    expect(candles).toHaveLength(RESOLUTIONS.length * 3);
    const daily = candles.filter((c) => c.resolution === '1d' && c.tokenKey === 'ethereum:0xa').map((c) => [c.bucket, c.open, c.close]);
    expect(daily).toEqual([
      [utc('2024-03-10T00:00:00Z'), 1, 1],
      [utc('2024-03-11T00:00:00Z'), 2, 2],
    ]);
  });
  it('merges a later partial candle of the same bucket like the upsert does', () => {
    const t = utc('2024-03-10T10:00:00Z');
    const [a] = foldCandles([point(t, 1, 10), point(t + 60, 2, 20)], ['1h']);
    const [b] = foldCandles([point(t + 120, 3, 5), point(t + 180, 4, 7)], ['1h']);
    const [whole] = foldCandles([point(t, 1, 10), point(t + 60, 2, 20), point(t + 120, 3, 5), point(t + 180, 4, 7)], ['1h']);
    expect(mergeCandle(a!, b!)).toEqual(whole);
  });
  it('opens, lowers and closes a candle only at priced points (price 0 = the token had no price yet)', () => {
    // WETH seen (minted) before any pool priced it, then priced in the same bucket.
    const t = utc('2024-03-10T10:00:00Z');
    const points = [
      point(t, 1, 0),
      point(t + 60, 2, 2_000),
      point(t + 120, 3, 1_990),
      point(t + 180, 4, 2_010),
      { ...point(t + 240, 5, 0), liquidity: 7 },
    ];
    for (const c of foldCandles(points))
      expect(c).toMatchObject({ open: 2_000, high: 2_010, low: 1_990, close: 2_010, blockNumber: 5, liquidity: 7 });
    // A bucket with no priced point folds to OHLC 0 (the upsert stores no row for it).
    const [unpriced] = foldCandles([point(t, 1, 0), point(t + 60, 2, 0)], ['1h']);
    expect(unpriced).toMatchObject({ open: 0, high: 0, low: 0, close: 0, blockNumber: 2 });
  });
  it('merges partial candles with unpriced parts like folding all the points (any split)', () => {
    const t = utc('2024-03-10T10:00:00Z');
    const prices = [0, 0, 10, 20, 0, 5, 7, 0];
    const points = prices.map((p, i) => point(t + 60 * i, i + 1, p));
    const [whole] = foldCandles(points, ['1h']);
    expect(whole).toMatchObject({ open: 10, high: 20, low: 5, close: 7 });
    for (let cut = 1; cut < points.length; cut++) {
      for (let cut2 = cut + 1; cut2 <= points.length; cut2++) {
        const parts = [points.slice(0, cut), points.slice(cut, cut2), points.slice(cut2)]
          .filter((x) => x.length > 0)
          .map((x) => foldCandles(x, ['1h'])[0]!);
        expect({ cut, cut2, merged: parts.reduce((a, b) => mergeCandle(a, b)) }).toEqual({ cut, cut2, merged: whole });
      }
    }
  });
  it('adds volumes in the bucket and over the day ending at its end, and the trending score', () => {
    const t = utc('2024-03-10T10:00:00Z');
    const v = new TimedAmounts();
    v.add(t - 86_400, 1_000); // exactly a day before the 15m bucket's end minus 15 min: outside
    v.add(t - 3_600, 300);
    v.add(t + 100, 50);
    v.add(t + 900, 7); // next bucket
    const [c] = withVolumes(foldCandles([point(t + 100, 1, 1)], ['15m']), () => v);
    expect(c).toMatchObject({ volumeUsd: 50, volume1dUsd: 350, trendingScore: 3.5 });
  });
});
