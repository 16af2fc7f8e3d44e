import { BackfillProgress } from './progress';

describe('BackfillProgress', () => {
  it('has no rate and no ETA before two batches, and an ETA of 0 at the head', () => {
    const p = new BackfillProgress(1, 10_000);
    expect(p.report(0, 0, 100)).toEqual({
      cursor: 0,
      head: 100,
      blocksLeft: 100,
      blocksPerSecond: 0,
      eventsPerSecond: 0,
      etaSeconds: null,
      percent: 0,
    });
    p.record(1_000, 10, 500);
    expect(p.report(1_000, 10, 100).etaSeconds).toBeNull();
    expect(p.report(1_000, 100, 100)).toMatchObject({ blocksLeft: 0, etaSeconds: 0, percent: 100 });
  });

  it('computes blocks/s and events/s over the window and ETA = blocks left / rate', () => {
    const p = new BackfillProgress(1, 10_000);
    p.record(0, 0, 0);
    p.record(1_000, 100, 1_000);
    p.record(2_000, 200, 3_000);
    const r = p.report(2_000, 200, 1_200);
    expect(r.blocksPerSecond).toBe(100);
    expect(r.eventsPerSecond).toBe(2_000); // 4000 events in 2 s
    expect(r.blocksLeft).toBe(1_000);
    expect(r.etaSeconds).toBe(10);
    expect(r.percent).toBe(16.6); // 200 of blocks 1..1200
  });

  it('forgets batches older than the window: the rate follows the recent speed', () => {
    const p = new BackfillProgress(0, 5_000);
    p.record(0, 0, 0);
    p.record(1_000, 1_000, 0); // fast start: 1000 blocks/s
    for (let t = 2_000; t <= 20_000; t += 1_000) p.record(t, 1_000 + (t - 1_000) / 100, 0); // then 10 blocks/s
    const r = p.report(20_000, 1_190, 2_190);
    expect(r.blocksPerSecond).toBe(10);
    expect(r.etaSeconds).toBe(100);
  });

  it('has no ETA when nothing moved (rate 0), and the rate decays while no batch commits', () => {
    const p = new BackfillProgress(0, 5_000);
    p.record(0, 50, 0);
    p.record(1_000, 50, 10); // events without blocks: a batch that only re-read the cursor's range
    expect(p.report(1_000, 50, 100)).toMatchObject({ blocksPerSecond: 0, eventsPerSecond: 10, etaSeconds: null });
    const q = new BackfillProgress(0, 5_000);
    q.record(0, 0, 0);
    q.record(1_000, 100, 0);
    expect(q.report(1_000, 100, 200).blocksPerSecond).toBe(100);
    expect(q.report(10_000, 100, 200).blocksPerSecond).toBe(10); // 100 blocks in the 10 s since the window's start
  });

  it('starts over after a reset (a rollback moved the cursor back)', () => {
    const p = new BackfillProgress(0, 5_000);
    p.record(0, 0, 0);
    p.record(1_000, 100, 0);
    p.reset(1_000, 40);
    expect(p.report(1_000, 40, 100)).toMatchObject({ blocksPerSecond: 0, etaSeconds: null, blocksLeft: 60 });
    p.record(2_000, 60, 0);
    expect(p.report(2_000, 60, 100)).toMatchObject({ blocksPerSecond: 20, etaSeconds: 2 });
  });

  it('reports no ETA and 0 % while the head is unknown', () => {
    const p = new BackfillProgress(0);
    expect(p.report(0, -1, -1)).toMatchObject({ blocksLeft: 0, etaSeconds: null, percent: 0 });
  });
});
