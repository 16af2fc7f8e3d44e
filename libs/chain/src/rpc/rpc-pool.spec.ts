import { ChainReader } from './chain-reader';
import { BlockNotOnNodeError, RpcTransportError } from './errors';
import { JsonRpcClient, type RpcTransport } from './json-rpc-client';

interface Call {
  id: number;
  method: string;
  params: unknown[];
}
type Reply = { status: number; text: string; retryAfter?: string } | 'drop';
/** A fake node per URL: gets the parsed body (one call or a batch), returns an HTTP answer. */
type FakeNode = (body: Call | Call[]) => Reply;

const header = (n: number, tag = 'a'): Record<string, unknown> => ({
  number: `0x${n.toString(16)}`,
  hash: `0x${tag}${n.toString(16).padStart(63, '0')}`,
  parentHash: `0x${tag}${Math.max(0, n - 1)
    .toString(16)
    .padStart(63, '0')}`,
  timestamp: '0x1',
});
const ok = (json: unknown): Reply => ({ status: 200, text: JSON.stringify(json) });
/** An honest node with head `head`: blocks up to it, null above. */
const node =
  (head: number, tag = 'a'): FakeNode =>
  (body) => {
    const one = (c: Call): unknown => {
      if (c.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: c.id, result: `0x${head.toString(16)}` };
      if (c.method === 'eth_getBlockByNumber') {
        const n = c.params[0] === 'latest' ? head : parseInt(c.params[0] as string, 16);
        return { jsonrpc: '2.0', id: c.id, result: n > head ? null : header(n, tag) };
      }
      return { jsonrpc: '2.0', id: c.id, result: '0x1' };
    };
    return ok(Array.isArray(body) ? body.map(one) : one(body));
  };

function harness(nodes: Record<string, FakeNode>): {
  transport: RpcTransport;
  sent: Array<{ url: string; size: number }>;
  sleeps: number[];
  opts: { transport: RpcTransport; sleep: (ms: number) => Promise<void>; random: () => number };
} {
  const sent: Array<{ url: string; size: number }> = [];
  const sleeps: number[] = [];
  const transport: RpcTransport = async (url, text) => {
    const body = JSON.parse(text) as Call | Call[];
    sent.push({ url, size: Array.isArray(body) ? body.length : 1 });
    const reply = nodes[url]!(body);
    if (reply === 'drop') throw new Error('socket hang up');
    return reply;
  };
  return { transport, sent, sleeps, opts: { transport, sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 } };
}

/** A URL that answers batches above `cap` like capped providers: one error object for the whole batch. */
const capped =
  (cap: number, inner: FakeNode): FakeNode =>
  (body) =>
    Array.isArray(body) && body.length > cap
      ? ok({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `batch size too large, at most ${cap}` } })
      : inner(body);

const blockRequests = (from: number, count: number): Array<{ method: string; params: unknown[] }> =>
  Array.from({ length: count }, (_, i) => ({ method: 'eth_getBlockByNumber', params: [`0x${(from + i).toString(16)}`, false] }));

describe('JsonRpcClient over an RPC pool', () => {
  it('gets past a URL that answers oversized batches with one error object, and remembers its cap (the block-30 loop)', async () => {
    const h = harness({ a: capped(20, node(1000)) });
    const reader = new ChainReader(new JsonRpcClient('a', h.opts));
    const numbers = Array.from({ length: 100 }, (_, i) => i + 1);
    expect((await reader.headers(numbers)).map((x) => x.number)).toEqual(numbers);
    const cap = reader.client.pool.endpoints[0]!.batchCap;
    expect(cap).toBeLessThanOrEqual(20);
    expect(cap).toBeGreaterThanOrEqual(10);
    // Learned: the next batches are cut to the cap at once, nothing refused.
    h.sent.length = 0;
    await reader.headers(numbers);
    expect(Math.max(...h.sent.map((s) => s.size))).toBe(cap);
    expect(h.sent).toHaveLength(Math.ceil(100 / cap));
  });

  it('keeps the answers of a short reply, learns the cap from it, per URL', async () => {
    const short: FakeNode = (body) => (Array.isArray(body) && body.length > 20 ? node(1000)(body.slice(0, 20)) : node(1000)(body));
    const h = harness({ a: short, b: node(1000) });
    const client = new JsonRpcClient(['a', 'b'], h.opts);
    const got = await client.batch<{ number: string }>(blockRequests(1, 50));
    expect(got.map((g) => parseInt(g.number, 16))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(client.pool.endpoints.map((e) => e.batchCap)).toEqual([20, 100]);
    // 50 asked, 20 answered; the 30 left in batches of 20 and 10: no call asked twice.
    expect(h.sent.map((s) => s.size)).toEqual([50, 20, 10]);
  });

  it('moves a dropped connection or a 502 to another URL at once, and prefers the healthy URL afterwards', async () => {
    let aCalls = 0;
    const h = harness({ a: () => (aCalls++ % 2 === 0 ? 'drop' : { status: 502, text: 'Bad Gateway' }), b: node(1000) });
    const client = new JsonRpcClient(['a', 'b'], h.opts);
    expect(await client.call('eth_blockNumber')).toBe('0x3e8');
    expect(h.sent.map((s) => s.url)).toEqual(['a', 'b']);
    expect(h.sleeps).toEqual([]);
    h.sent.length = 0;
    for (let i = 0; i < 5; i++) await client.call('eth_chainId');
    expect(h.sent.every((s) => s.url === 'b')).toBe(true);
  });

  it('single URL: retries transport failures with backoff, gives up after the attempts', async () => {
    const h = harness({ a: () => ({ status: 503, text: 'busy' }) });
    const client = new JsonRpcClient('a', { ...h.opts, retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1000 } });
    await expect(client.call('eth_chainId')).rejects.toThrow(RpcTransportError);
    expect(h.sent).toHaveLength(3);
    expect(h.sleeps).toEqual([50, 100]);
  });

  it('pauses a URL on 429 for its Retry-After (others take the load meanwhile)', async () => {
    let throttle = true;
    const limited: FakeNode = (body) => {
      if (!throttle) return node(1000)(body);
      throttle = false;
      return { status: 429, text: '{"jsonrpc":"2.0","id":null,"error":{"code":429,"message":"Too Many Requests"}}', retryAfter: '2' };
    };
    const single = harness({ a: limited });
    expect(await new JsonRpcClient('a', single.opts).call('eth_blockNumber')).toBe('0x3e8');
    expect(single.sleeps).toHaveLength(1);
    expect(single.sleeps[0]).toBeGreaterThan(1_900);

    throttle = true;
    const two = harness({ a: limited, b: node(1000) });
    const client = new JsonRpcClient(['a', 'b'], two.opts);
    await client.call('eth_blockNumber');
    expect(two.sent.map((s) => s.url)).toEqual(['a', 'b']);
    expect(two.sleeps).toEqual([]);
    expect(client.pool.endpoints[0]!.throttledUntil).toBeGreaterThan(Date.now() + 1_900);
  });

  it('without Retry-After, backs off exponentially with jitter', async () => {
    const h = harness({ a: () => ({ status: 429, text: 'Too Many Requests' }) });
    const client = new JsonRpcClient('a', { ...h.opts, random: () => 1 });
    client.pool.endpoints[0]!.throttledUntil = 0;
    await expect(client.call('eth_chainId')).rejects.toThrow(/HTTP 429/);
    // 500 ms, 1 s, 2 s ... up to the retry policy's longest delay (10 s; random() = 1: the full pause), 30 times
    expect(h.sleeps.slice(0, 6).map((ms) => Math.round(ms / 100) * 100)).toEqual([500, 1000, 2000, 4000, 8000, 10_000]);
    expect(Math.max(...h.sleeps)).toBeLessThanOrEqual(10_000);
    expect(h.sent).toHaveLength(31);
  });

  it('spends at most the per-URL budget: requests wait for tokens', async () => {
    const h = harness({ a: node(1000) });
    const client = new JsonRpcClient('a', { ...h.opts, maxRps: 2 });
    for (let i = 0; i < 4; i++) await client.call('eth_chainId');
    // 2 in the burst, then each waits about half a second for its token
    expect(h.sleeps.length).toBeGreaterThanOrEqual(2);
    expect(h.sleeps.every((ms) => ms > 400 && ms <= 1000)).toBe(true);
  });

  it('takes the lowest head among URLs not far behind; a stale URL is left out', async () => {
    const h = harness({ a: node(100), b: node(97, 'b'), c: node(50, 'c') });
    const reader = new ChainReader(new JsonRpcClient(['a', 'b', 'c'], h.opts));
    expect(await reader.blockNumber()).toBe(97);
    expect((await reader.latestHeader()).number).toBe(97);
    expect(reader.client.pool.endpoints.map((e) => e.head)).toEqual([100, 97, 50]);
  });

  it('asks another URL for a block one node answers null for, and remembers that node as behind', async () => {
    const h = harness({ a: node(95), b: node(100, 'b') });
    const reader = new ChainReader(new JsonRpcClient(['a', 'b'], h.opts));
    const [hdr] = await reader.headers([99]);
    expect(hdr!.hash).toBe(header(99, 'b').hash);
    expect(reader.client.pool.endpoints[0]!.head).toBe(98);
    // Now known behind: block 99 goes straight to b.
    h.sent.length = 0;
    await reader.headers([99]);
    expect(h.sent.map((s) => s.url)).toEqual(['b']);
    // A block nobody has: maybeHeaders says so (after asking every URL), headers keeps failing as "not on the node".
    expect(await reader.maybeHeaders([150])).toEqual([undefined]);
    await expect(reader.headers([150])).rejects.toThrow(BlockNotOnNodeError);
  });

  it('a timed-out eth_getLogs goes back to the range loop (it may be too large) and costs its URL its rank', async () => {
    let hung = 0;
    // answers eth_getLogs with no logs
    const quiet: FakeNode = (body) =>
      Array.isArray(body) ? node(1000)(body) : ok({ jsonrpc: '2.0', id: body.id, result: body.method === 'eth_getLogs' ? [] : '0x1' });
    const h = harness({ a: quiet, b: quiet });
    const transport: RpcTransport = async (url, text, ms) => {
      if (url === 'a' && (JSON.parse(text) as Call).method === 'eth_getLogs') {
        hung++;
        throw Object.assign(new Error('aborted'), { name: 'TimeoutError' });
      }
      return h.transport(url, text, ms);
    };
    const reader = new ChainReader(new JsonRpcClient(['a', 'b'], { ...h.opts, transport }));
    await expect(reader.logs({ addresses: ['0x0000000000000000000000000000000000000001'], topic0: [] }, 1, 100)).rejects.toThrow(
      /timeout after/,
    );
    expect(hung).toBe(1);
    expect(await reader.logs({ addresses: ['0x0000000000000000000000000000000000000001'], topic0: [] }, 1, 50)).toEqual([]);
    expect(hung).toBe(1);
    expect(h.sent.at(-1)!.url).toBe('b');
  });
});
