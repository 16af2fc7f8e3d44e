import { CursorWatch } from './cursor-watch';

describe('CursorWatch', () => {
  const setup = (answers: Array<string | Error>): { watch: CursorWatch; moves: () => number; errors: unknown[] } => {
    let moved = 0;
    const errors: unknown[] = [];
    const fingerprint = async (): Promise<string> => {
      const a = answers.shift();
      if (a === undefined) throw new Error('no more answers');
      if (a instanceof Error) throw a;
      return a;
    };
    return {
      watch: new CursorWatch(
        fingerprint,
        () => moved++,
        (e) => errors.push(e),
        10,
      ),
      moves: () => moved,
      errors,
    };
  };

  it('signals a move only when the cursor fingerprint changes (not on the first read)', async () => {
    const { watch, moves } = setup(['eth:1:0xa', 'eth:1:0xa', 'eth:2:0xb', 'eth:2:0xc', 'eth:2:0xc']);
    await watch.check();
    expect(moves()).toBe(0);
    await watch.check();
    expect(moves()).toBe(0);
    await watch.check(); // new block
    expect(moves()).toBe(1);
    await watch.check(); // reorg at the same height
    expect(moves()).toBe(2);
    await watch.check();
    expect(moves()).toBe(2);
  });

  it('empties the cache when the position cannot be read, and again on the next read', async () => {
    const { watch, moves, errors } = setup(['eth:1:0xa', new Error('db down'), 'eth:1:0xa']);
    await watch.check();
    await watch.check();
    expect(moves()).toBe(1);
    expect(errors).toHaveLength(1);
    await watch.check();
    expect(moves()).toBe(2);
  });

  it('polls on its interval once started and stops cleanly', async () => {
    const { watch, moves } = setup(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    await watch.check();
    watch.start();
    await new Promise((r) => setTimeout(r, 60));
    await watch.stop();
    const seen = moves();
    expect(seen).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 30));
    expect(moves()).toBe(seen);
  });
});
