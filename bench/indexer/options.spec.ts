import { DEFAULT_OPTIONS, PAID_PLAN, parseIndexerOptions } from './options';

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

describe('parseIndexerOptions, remote mode', () => {
  it('is off by default', () => {
    expect(parseIndexerOptions([]).remote).toBeUndefined();
  });

  it('--remote takes the paid plan and skips the head-lag phase unless asked for', () => {
    const o = parseIndexerOptions(['--remote', '--events', '200000']);
    expect(o.remote).toEqual(PAID_PLAN);
    expect(o).toMatchObject({ events: 200_000, headLagSeconds: 0, rawInFlight: 4 });
    expect(parseIndexerOptions(['--remote', '--raw-in-flight', '2']).rawInFlight).toBe(2);
    expect(parseIndexerOptions([]).rawInFlight).toBe(2);
    expect(PAID_PLAN).toMatchObject({ roundTripMs: 40, maxBlockRange: 2000, maxResults: 10_000, maxBatch: 100, failureShare: 0 });
    expect(parseIndexerOptions(['--remote', '--head-lag-seconds', '10']).headLagSeconds).toBe(10);
  });

  it('any emulator flag implies --remote; a budget without --burst bursts a second of it', () => {
    const o = parseIndexerOptions(['--rps', '50', '--rtt-ms=80', '--failure-share', '0.01']);
    expect(o.remote).toEqual({ ...PAID_PLAN, requestsPerSecond: 50, burst: 50, roundTripMs: 80, failureShare: 0.01 });
    expect(parseIndexerOptions(['--rps', '50', '--burst', '5']).remote).toMatchObject({ requestsPerSecond: 50, burst: 5 });
    expect(parseIndexerOptions(['--burst', '5', '--rps', '50']).remote).toMatchObject({ requestsPerSecond: 50, burst: 5 });
    expect(
      parseIndexerOptions(['--max-results', '2000', '--max-range', '500', '--max-batch', '10', '--proxy-port', '37001']).remote,
    ).toMatchObject({ maxResults: 2000, maxBlockRange: 500, maxBatch: 10, port: 37001 });
  });

  it('rejects bad emulator values', () => {
    expect(() => parseIndexerOptions(['--failure-share', '1'])).toThrow(/share in \[0, 1\)/);
    expect(() => parseIndexerOptions(['--failure-share', 'x'])).toThrow(/share/);
    expect(() => parseIndexerOptions(['--rps', '-1'])).toThrow(/non-negative integer/);
    expect(() => parseIndexerOptions(['--max-results', '0'])).toThrow(/at least 1/);
    expect(() => parseIndexerOptions(['--raw-in-flight', '0'])).toThrow(/at least 1/);
  });
});
