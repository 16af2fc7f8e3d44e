import { DEFAULT_OPTIONS, parseIndexerOptions } from './options';

describe('parseIndexerOptions', () => {
  it('defaults to a million events with Ponder and 30 s of head lag', () => {
    expect(parseIndexerOptions([])).toEqual(DEFAULT_OPTIONS);
    expect(DEFAULT_OPTIONS.events).toBe(1_000_000);
  });

  it('reads numbers in both flag styles, with underscores, and --no-ponder', () => {
    const o = parseIndexerOptions(['--events', '100_000', '--head-lag-seconds=5', '--no-ponder']);
    expect(o).toMatchObject({ events: 100_000, headLagSeconds: 5, ponder: false });
  });

  it('rejects unknown flags and bad numbers', () => {
    expect(() => parseIndexerOptions(['--evnts', '5'])).toThrow(/unknown option/);
    expect(() => parseIndexerOptions(['--events'])).toThrow(/non-negative integer/);
    expect(() => parseIndexerOptions(['--events', '1.5'])).toThrow(/non-negative integer/);
    expect(() => parseIndexerOptions(['--events', '0'])).toThrow(/at least 1/);
  });
});
