import { ReplyLru } from './lru';

describe('ReplyLru', () => {
  let clock = 0;
  const now = (): number => clock;
  beforeEach(() => (clock = 0));

  it('computes once per key and serves the stored reply until cleared', async () => {
    const lru = new ReplyLru<number>(10, 1000, now);
    const compute = jest.fn(async () => 7);
    expect(await lru.getOrCompute('a', compute)).toBe(7);
    expect(await lru.getOrCompute('a', compute)).toBe(7);
    expect(compute).toHaveBeenCalledTimes(1);
    lru.clear();
    expect(await lru.getOrCompute('a', compute)).toBe(7);
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('evicts the least recently used entry when full', async () => {
    const lru = new ReplyLru<string>(2, 1000, now);
    const calls: string[] = [];
    const get = (k: string): Promise<string> => lru.getOrCompute(k, async () => (calls.push(k), k));
    await get('a');
    await get('b');
    await get('a'); // a is now the most recent
    await get('c'); // evicts b
    expect(lru.size).toBe(2);
    await get('a');
    await get('b');
    expect(calls).toEqual(['a', 'b', 'c', 'b']);
  });

  it('treats entries older than the TTL as misses', async () => {
    const lru = new ReplyLru<number>(10, 100, now);
    let n = 0;
    const compute = async (): Promise<number> => ++n;
    expect(await lru.getOrCompute('a', compute)).toBe(1);
    clock = 100;
    expect(await lru.getOrCompute('a', compute)).toBe(1);
    clock = 101;
    expect(await lru.getOrCompute('a', compute)).toBe(2);
  });

  it('shares one computation between concurrent misses and never stores errors', async () => {
    const lru = new ReplyLru<number>(10, 1000, now);
    let release!: (v: number) => void;
    const compute = jest.fn(() => new Promise<number>((r) => (release = r)));
    const both = Promise.all([lru.getOrCompute('a', compute), lru.getOrCompute('a', compute)]);
    release(3);
    expect(await both).toEqual([3, 3]);
    expect(compute).toHaveBeenCalledTimes(1);
    await expect(lru.getOrCompute('b', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await lru.getOrCompute('b', async () => 4)).toBe(4);
  });

  it('does not store a reply computed across a clear (a block arrived meanwhile)', async () => {
    const lru = new ReplyLru<number>(10, 1000, now);
    let release!: (v: number) => void;
    const pending = lru.getOrCompute('a', () => new Promise<number>((r) => (release = r)));
    lru.clear();
    release(1);
    expect(await pending).toBe(1);
    expect(lru.size).toBe(0);
    expect(await lru.getOrCompute('a', async () => 2)).toBe(2);
  });

  it('with no capacity, always computes', async () => {
    const lru = new ReplyLru<number>(0, 1000, now);
    const compute = jest.fn(async () => 1);
    await lru.getOrCompute('a', compute);
    await lru.getOrCompute('a', compute);
    expect(compute).toHaveBeenCalledTimes(2);
  });
});
