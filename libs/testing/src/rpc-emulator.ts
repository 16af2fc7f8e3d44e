/**
 * A hosted-provider emulator on loopback: a JSON-RPC proxy in front of a node (anvil) that behaves
 * like the capped, rate-limited, flaky endpoints of hosted providers, reproducibly (seeded PRNG).
 * Tests (and the backfill benchmark) point the indexer at it instead of the node.
 *
 * Per HTTP request, in this order: the request budget (429 beyond it), a failure share (502s and
 * dropped connections), the round trip, then a batch cap (one error object, or a short array),
 * and per call: eth_getLogs range and result caps (with the providers' error texts) and a lagging
 * view (a head `lag.blocks` behind, null blocks and refused log ranges above it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcEmulatorOptions {
  /** the node behind the emulator */
  upstream: string;
  /** port on 127.0.0.1 (0: any free port) */
  port?: number;
  /** added to every HTTP request */
  roundTripMs?: number;
  /** requests per second (token bucket); beyond: HTTP 429 */
  requestsPerSecond?: number;
  /** requests the bucket holds (default: a second's worth); small values answer any burst with 429s */
  burst?: number;
  /** Retry-After (seconds) on 429s; default none */
  retryAfterSeconds?: number;
  /** eth_getLogs over more blocks is refused */
  maxBlockRange?: number;
  /** eth_getLogs answering more logs is refused */
  maxResults?: number;
  /** batches above this size are refused */
  maxBatch?: number;
  /** how: one JSON-RPC error object instead of the array (default), or only the first maxBatch answers */
  batchOverflow?: 'error' | 'short';
  /** share of HTTP requests answered 502 or dropped mid-connection (half each) */
  failureShare?: number;
  /** a node behind: its head is `blocks` behind the upstream's, for `share` of the HTTP requests (default 1: always) */
  lag?: { blocks: number; share?: number };
  /** PRNG seed (failures, lag, error texts) */
  seed?: number;
}

export interface RpcEmulatorStats {
  requests: number;
  calls: number;
  throttled: number;
  failed: number;
  batchRefused: number;
  rangeRefused: number;
  resultsRefused: number;
  lagged: number;
}

export interface RpcEmulator {
  url: string;
  readonly stats: RpcEmulatorStats;
  close(): Promise<void>;
}

/** One JSON-RPC request and its answer, as the emulator and the replay server read and write them. */
export interface Call {
  jsonrpc?: string;
  id?: number | string | null;
  method: string;
  params?: unknown[];
}

export interface Answer {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/** mulberry32: a small seeded PRNG, enough for reproducible failure patterns */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (n: number): string => `0x${n.toString(16)}`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The providers' words for a range over the cap (QuickNode, geth/erigon, Ankr, Alchemy). */
const RANGE_TEXTS = [
  (max: number) => `eth_getLogs is limited to a ${max.toLocaleString('en-US')} range`,
  (max: number) => `exceed maximum block range: ${max}`,
  () => 'block range is too wide',
  (max: number) =>
    `Log response size exceeded. You can make eth_getLogs requests with up to a ${max} block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response.`,
];

/**
 * The block number of the log at `index` (0-based) in an eth_getLogs reply, found by scanning the
 * text for the field (no parse of a reply that may hold 100k logs); undefined when it has no more
 * than `index` logs.
 */
function logBlockAt(text: string, index: number): number | undefined {
  const field = '"blockNumber":"';
  let at = -1;
  for (let i = 0; i <= index; i++) {
    at = text.indexOf(field, at + 1);
    if (at < 0) return undefined;
  }
  return parseInt(text.slice(at + field.length, text.indexOf('"', at + field.length)), 16);
}

export async function startRpcEmulator(o: RpcEmulatorOptions): Promise<RpcEmulator> {
  const random = seededRandom(o.seed ?? 1);
  const stats: RpcEmulatorStats = {
    requests: 0,
    calls: 0,
    throttled: 0,
    failed: 0,
    batchRefused: 0,
    rangeRefused: 0,
    resultsRefused: 0,
    lagged: 0,
  };
  const rps = o.requestsPerSecond ?? 0;
  const burst = Math.max(1, o.burst ?? rps);
  let tokens = burst;
  let refilled = Date.now();
  const takeToken = (): boolean => {
    if (rps <= 0) return true;
    const now = Date.now();
    tokens = Math.min(burst, tokens + ((now - refilled) * rps) / 1000);
    refilled = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };

  /** The node's reply as text: passed through unparsed (eth_getLogs replies are large). */
  const upstream = async (call: Call): Promise<string> => {
    const res = await fetch(o.upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...call, jsonrpc: '2.0' }),
    });
    return res.text();
  };
  const upstreamHead = async (): Promise<number> =>
    parseInt((JSON.parse(await upstream({ id: 0, method: 'eth_blockNumber', params: [] })) as Answer).result as string, 16);

  /** One call as the emulated provider answers it (JSON text); `head` is the lagging view's head, if lagging. */
  const answer = async (call: Call, head: number | undefined): Promise<string> => {
    const id = call.id ?? null;
    const reply = (a: Omit<Answer, 'jsonrpc' | 'id'>): string => JSON.stringify({ jsonrpc: '2.0', id, ...a });
    const fail = (code: number, message: string): string => reply({ error: { code, message } });
    const params = call.params ?? [];
    if (head !== undefined && call.method === 'eth_blockNumber') return reply({ result: hex(head) });
    if (head !== undefined && call.method === 'eth_getBlockByNumber') {
      const tag = params[0];
      if (tag === 'latest' || tag === 'safe' || tag === 'finalized') return upstream({ ...call, params: [hex(head), ...params.slice(1)] });
      if (typeof tag === 'string' && tag.startsWith('0x') && parseInt(tag, 16) > head) return reply({ result: null });
    }
    if (call.method !== 'eth_getLogs') return upstream(call);
    const filter = (params[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string };
    if (filter.blockHash) return upstream(call);
    const top = head ?? (await upstreamHead());
    const block = (tag: string | undefined, dflt: number): number =>
      tag === undefined || tag === 'latest' ? dflt : tag === 'earliest' ? 0 : parseInt(tag, 16);
    const from = block(filter.fromBlock, top);
    const to = block(filter.toBlock, top);
    if (head !== undefined && to > head) return fail(-32000, 'block range extends beyond current head block');
    if (o.maxBlockRange !== undefined && to - from + 1 > o.maxBlockRange) {
      stats.rangeRefused++;
      return fail(-32600, RANGE_TEXTS[Math.floor(random() * RANGE_TEXTS.length)]!(o.maxBlockRange));
    }
    const up = await upstream(call);
    const over = o.maxResults === undefined ? undefined : logBlockAt(up, o.maxResults);
    if (over !== undefined) {
      stats.resultsRefused++;
      // Like Infura and Alchemy: a suggested range that fits, when one exists.
      const last = over - 1;
      const hint = last >= from ? ` Try with this block range [${hex(from)}, ${hex(last)}].` : '';
      return random() < 0.5
        ? fail(-32005, `query returned more than ${o.maxResults} results.${hint}`)
        : fail(
            -32602,
            `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of ${o.maxResults} logs in the response.${hint ? ` Based on your parameters, this block range should work: [${hex(from)}, ${hex(last)}]` : ''}`,
          );
    }
    return up;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: string): Promise<void> => {
    stats.requests++;
    const send = (status: number, json: unknown, headers: Record<string, string> = {}): void => {
      const text = typeof json === 'string' ? json : JSON.stringify(json);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
      res.end(text);
    };
    if (!takeToken()) {
      stats.throttled++;
      return send(
        429,
        { jsonrpc: '2.0', id: null, error: { code: 429, message: 'Too Many Requests' } },
        o.retryAfterSeconds !== undefined ? { 'retry-after': String(o.retryAfterSeconds) } : {},
      );
    }
    if (o.failureShare && random() < o.failureShare) {
      stats.failed++;
      if (random() < 0.5) return send(502, '<html>502 Bad Gateway</html>');
      req.socket.destroy();
      return;
    }
    if (o.roundTripMs) await sleep(o.roundTripMs);
    let parsed: Call | Call[];
    try {
      parsed = JSON.parse(body) as Call | Call[];
    } catch {
      return send(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    let head: number | undefined;
    if (o.lag && random() < (o.lag.share ?? 1)) {
      stats.lagged++;
      head = Math.max(0, (await upstreamHead()) - o.lag.blocks);
    }
    if (!Array.isArray(parsed)) {
      stats.calls++;
      return send(200, await answer(parsed, head));
    }
    let calls = parsed;
    if (o.maxBatch !== undefined && calls.length > o.maxBatch) {
      stats.batchRefused++;
      if (o.batchOverflow !== 'short')
        return send(200, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `batch size too large: ${calls.length} requests, at most ${o.maxBatch} allowed` },
        });
      calls = calls.slice(0, o.maxBatch);
    }
    stats.calls += calls.length;
    send(200, `[${(await Promise.all(calls.map((c) => answer(c, head)))).join(',')}]`);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`emulator: ${(e as Error).message}`);
      });
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
