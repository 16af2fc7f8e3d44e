import { change, intervalMetrics, METRIC_WINDOWS, type FlowEvent } from './interval-metrics';

const NOW = Date.UTC(2026, 0, 10, 12);
const ev = (minutesAgo: number, type: string, volumeUsd: number, direction = 0): FlowEvent => ({
  type,
  direction,
  volumeUsd,
  timeMs: NOW - minutesAgo * 60_000,
});

describe('intervalMetrics', () => {
  const events = [
    ev(5, 'swap', 100, 1),
    ev(10, 'deposit', 50),
    ev(20, 'swap', 30, 0),
    ev(40, 'withdraw', 20),
    ev(100, 'swap', 10, 1),
    ev(60 * 30, 'deposit', 7),
    ev(60 * 60, 'swap', 1000),
  ];
  const m = intervalMetrics(events, NOW);

  it('has exactly the eight windows', () => {
    expect(Object.keys(m)).toEqual(METRIC_WINDOWS.map(([n]) => n));
  });

  it('aggregates the 15m window and compares it with the 15m before', () => {
    const w = m['15m']!;
    expect(w).toMatchObject({
      swapVolumeUsd: '100',
      swapBuyVolumeUsd: '100',
      depositVolumeUsd: '50',
      withdrawVolumeUsd: '0',
      grossVolumeUsd: '150',
      netVolumeUsd: '50',
    });
    expect(w).toMatchObject({ eventCount: 2, swapCount: 1, swapBuyCount: 1, swapSellCount: 0, depositCount: 1, withdrawCount: 0 });
    // prior 15m (15..30 min ago) had one 30 USD swap
    expect(w.grossVolumeUsdChange).toBe(change(150, 30));
    expect(w.swapVolumeUsdChange).toBe(change(100, 30));
  });

  it('counts each event once per window and keeps the 2d window to 48 hours', () => {
    expect(m['1h']).toMatchObject({ eventCount: 4, grossVolumeUsd: '200', netVolumeUsd: '30' });
    expect(m['2d']).toMatchObject({ eventCount: 6, depositCount: 2, swapCount: 3 });
    // the 60 h old swap is in the prior 2d window only
    expect(m['2d']!.swapVolumeUsdChange).toBe(change(140, 1000));
  });

  it('change is a percentage and 0 without a prior window', () => {
    expect(change(150, 100)).toBe(50);
    expect(change(5, 0)).toBe(0);
  });
});
