import { testDevnet } from './devnet-env';
import { seededRandom, startRpcEmulator, type RpcEmulator, type RpcEmulatorOptions } from './rpc-emulator';

jest.setTimeout(60_000);

interface Answer {
  id?: number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

const upstream = (): string => testDevnet().rpcUrls.ethereum!;
const body = (method: string, params: unknown[] = [], id = 1): { jsonrpc: string; id: number; method: string; params: unknown[] } => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

async function post(url: string, payload: unknown): Promise<{ status: number; json?: unknown; dropped?: boolean }> {
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    const text = await res.text();
    return { status: res.status, json: text.startsWith('{') || text.startsWith('[') ? (JSON.parse(text) as unknown) : undefined };
  } catch {
    return { status: 0, dropped: true };
  }
}

/** fixed loopback ports above the devnet's (TEST_DEVNET_BASE_PORT moves both) */
let nextPort = Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 170;

describe('hosted-provider emulator', () => {
  const open: RpcEmulator[] = [];
  const start = async (o: Omit<RpcEmulatorOptions, 'upstream'>): Promise<RpcEmulator> => {
    const e = await startRpcEmulator({ upstream: upstream(), port: nextPort++, ...o });
    open.push(e);
    return e;
  };
  afterAll(async () => {
    for (const e of open) await e.close();
  });

  it('passes calls through, adding the round trip', async () => {
    const direct = (await post(upstream(), body('eth_blockNumber'))).json as Answer;
    const e = await start({ roundTripMs: 120 });
    const t0 = Date.now();
    const got = (await post(e.url, body('eth_blockNumber'))).json as Answer;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(115);
    expect(got.result).toBe(direct.result);
  });

  it('answers 429 beyond the request budget (with Retry-After when set)', async () => {
    const e = await start({ requestsPerSecond: 2, retryAfterSeconds: 1 });
    const statuses = await Promise.all(Array.from({ length: 12 }, () => post(e.url, body('eth_chainId')).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const res = await fetch(e.url, { method: 'POST', body: JSON.stringify(body('eth_chainId')) });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(e.stats.throttled).toBe(11);
    // A small bucket: a high rate, but no bursts.
    const strict = await start({ requestsPerSecond: 50, burst: 1 });
    const burst = await Promise.all(Array.from({ length: 4 }, () => post(strict.url, body('eth_chainId')).then((r) => r.status)));
    expect(burst.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
  });

  it('refuses eth_getLogs over the range cap and over the result cap with the providers texts', async () => {
    const e = await start({ maxBlockRange: 50, maxResults: 10, seed: 3 });
    const head = parseInt(((await post(e.url, body('eth_blockNumber'))).json as Answer).result as string, 16);
    const wide = (await post(e.url, body('eth_getLogs', [{ fromBlock: '0x0', toBlock: `0x${(60).toString(16)}` }]))).json as Answer;
    expect(wide.error?.message).toMatch(/limited to a 50 range|maximum block range: 50|block range is too wide|up to a 50 block range/);
    // The seeded history has far more than 10 logs in the last 50 blocks.
    const many = (
      await post(e.url, body('eth_getLogs', [{ fromBlock: `0x${(head - 49).toString(16)}`, toBlock: `0x${head.toString(16)}` }]))
    ).json as Answer;
    expect(many.error?.message).toMatch(/more than 10 results|cap of 10 logs/);
    expect(e.stats).toMatchObject({ rangeRefused: 1, resultsRefused: 1 });
  });

  it('refuses batches above the cap with one error object, or answers only the first calls', async () => {
    const calls = Array.from({ length: 5 }, (_, i) => body('eth_chainId', [], i + 1));
    const e = await start({ maxBatch: 3 });
    const refused = (await post(e.url, calls)).json as Answer;
    expect(Array.isArray(refused)).toBe(false);
    expect(refused.error?.message).toMatch(/batch size too large/);
    expect(((await post(e.url, calls.slice(0, 3))).json as Answer[]).map((a) => a.id)).toEqual([1, 2, 3]);
    const short = await start({ maxBatch: 3, batchOverflow: 'short' });
    expect(((await post(short.url, calls)).json as Answer[]).map((a) => a.id)).toEqual([1, 2, 3]);
  });

  it('fails a seeded share of requests (502 or dropped), the same ones for the same seed', async () => {
    const outcomes = async (seed: number): Promise<number[]> => {
      const e = await start({ failureShare: 0.3, seed });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await post(e.url, body('eth_chainId'))).status);
      return out;
    };
    const a = await outcomes(7);
    expect(await outcomes(7)).toEqual(a);
    expect(a.filter((s) => s === 502).length).toBeGreaterThan(0);
    expect(a.filter((s) => s === 0).length).toBeGreaterThan(0);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(20);
    expect(seededRandom(1)()).toBe(seededRandom(1)());
  });

  it('a lagging node reports a head behind, has no blocks above it and refuses log ranges past it', async () => {
    const head = parseInt(((await post(upstream(), body('eth_blockNumber'))).json as Answer).result as string, 16);
    const e = await start({ lag: { blocks: 5 } });
    expect(((await post(e.url, body('eth_blockNumber'))).json as Answer).result).toBe(`0x${(head - 5).toString(16)}`);
    expect(
      (((await post(e.url, body('eth_getBlockByNumber', ['latest', false]))).json as Answer).result as { number: string }).number,
    ).toBe(`0x${(head - 5).toString(16)}`);
    expect(((await post(e.url, body('eth_getBlockByNumber', [`0x${head.toString(16)}`, false]))).json as Answer).result).toBeNull();
    expect(
      (
        (await post(e.url, body('eth_getLogs', [{ fromBlock: `0x${(head - 1).toString(16)}`, toBlock: `0x${head.toString(16)}` }])))
          .json as Answer
      ).error?.message,
    ).toMatch(/beyond current head/);
  });
});
