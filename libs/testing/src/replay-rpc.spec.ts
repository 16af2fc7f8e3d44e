import { fillBlockTimes } from './replay-rpc';

describe('fillBlockTimes', () => {
  const known = new Map([
    [100, 1_000],
    [103, 1_007],
  ]);

  it('fills blocks without a recorded time at 12-second steps by default', () => {
    expect(() => fillBlockTimes(known, 100, 103)).toThrow(
      /block 103: recorded time 1007 is before block 102's \(1024\), which was filled at 12-second steps/,
    );
    expect([...fillBlockTimes(new Map([[100, 1_000]]), 100, 102).values()]).toEqual([1_000, 1_012, 1_024]);
  });

  it('fills at the given step (a 2-second chain such as Polygon), recorded times kept', () => {
    expect([...fillBlockTimes(known, 100, 104, 2).values()]).toEqual([1_000, 1_002, 1_004, 1_007, 1_009]);
  });
});
