import { followIndexing, formatProgress, type IndexingStatus } from './indexing-progress';

const status = (o: Partial<IndexingStatus>): IndexingStatus => ({
  network: 'ethereum',
  head: 1000,
  cursor: 400,
  lag: 600,
  blocksPerSecond: 50,
  eventsPerSecond: 2000,
  etaSeconds: 12,
  percent: 40,
  caughtUp: false,
  ...o,
});

describe('npm start indexing progress', () => {
  it('formats a network behind, one without a rate, one starting and one caught up', () => {
    expect(formatProgress(status({}))).toBe('ethereum: block 400 of 1000 (40%), 600 behind, 50 blocks/s, 2000 events/s, ETA 12s');
    expect(formatProgress(status({ etaSeconds: 3725 }))).toContain('ETA 1h02m');
    expect(formatProgress(status({ etaSeconds: 95 }))).toContain('ETA 1m35s');
    expect(formatProgress(status({ etaSeconds: null, blocksPerSecond: 0 }))).toContain('ETA unknown');
    expect(formatProgress(status({ head: null, cursor: null, lag: null }))).toBe('ethereum: starting (no head or cursor yet)');
    expect(formatProgress(status({ caughtUp: true, cursor: 1000, lag: 0 }))).toBe('ethereum: caught up at block 1000');
  });

  it('prints each network behind at every tick until all are caught up, then says so once', async () => {
    const reads: IndexingStatus[][] = [
      [status({}), status({ network: 'base', caughtUp: true, cursor: 90, head: 90, lag: 0 })],
      [
        status({ cursor: 800, lag: 200, percent: 80, etaSeconds: 4 }),
        status({ network: 'base', caughtUp: true, cursor: 91, head: 91, lag: 0 }),
      ],
      [status({ cursor: 1000, lag: 0, caughtUp: true }), status({ network: 'base', caughtUp: true, cursor: 92, head: 92, lag: 0 })],
    ];
    let i = 0;
    const lines: string[] = [];
    await followIndexing(
      async () => {
        if (i === 0) {
          i++;
          throw new Error('connect ECONNREFUSED');
        }
        return reads[Math.min(i++ - 1, reads.length - 1)]!;
      },
      (l) => lines.push(l),
      { intervalMs: 1 },
    );
    expect(lines).toEqual([
      'indexing: status not readable yet (connect ECONNREFUSED)',
      'indexing: ethereum: block 400 of 1000 (40%), 600 behind, 50 blocks/s, 2000 events/s, ETA 12s',
      'indexing: ethereum: block 800 of 1000 (80%), 200 behind, 50 blocks/s, 2000 events/s, ETA 4s',
      'indexing: every network caught up (ethereum at block 1000, base at block 92)',
    ]);
  });

  it('stops when the platform stops', async () => {
    const lines: string[] = [];
    let stop = false;
    const done = followIndexing(
      async () => [status({})],
      (l) => lines.push(l),
      { intervalMs: 1, stopped: () => stop },
    );
    await new Promise((r) => setTimeout(r, 20));
    stop = true;
    await done;
    expect(lines.length).toBeGreaterThan(0);
  });
});
