/**
 * eth_getLogs for the indexer: the POST and the parsing of the reply happen in a worker thread
 * (or, with INDEXER_LOGS_WORKER=false, on this thread) through the byte scanner; replies the
 * scanner does not take, and every failure, get the handling of the generic JSON-RPC client
 * (same errors, same retries, same adaptive ranges). Everything else goes through ChainReader.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  ChainReader,
  JsonRpcError,
  RpcTransportError,
  isRangeTooLargeError,
  parseRetryAfter,
  readInRanges,
  sortLogs,
  standardizeLogs,
  toQuantity,
  type AdaptiveRange,
  type JsonRpcClient,
  type LogFilter,
  type RpcLog,
} from '@tokensvc/chain';
import { HttpPoster } from './http-post';
import { fetchLogsReply } from './logs-fetch';
import { StringTable } from './string-table';
import { concatLogLists } from './concat-log-list';
import { ArrayLogList, logsOf, type LogList } from './log-list';
import { StringMirror, receive, type LogsReply, type LogsRequest } from './logs-wire';

const METHOD = 'eth_getLogs';
/** addresses per eth_getLogs request, as ChainReader splits them */
const MAX_ADDRESSES = 1000;

/** A settled request: logs, or what the generic path needs to answer it. */
type Settled = { kind: 'logs'; logs: LogList } | { kind: 'failed'; error: unknown } | Exclude<LogsReply, { kind: 'logs' }>;

interface LogsChannel {
  request(url: string, payload: string, timeoutMs: number, network: string): Promise<Settled>;
  close(): void;
}

/** Turns a reply into a settled request (scanned replies received here, in arrival order). */
function settle(reply: LogsReply, mirror: StringMirror): Settled {
  if (reply.kind !== 'logs') return reply;
  try {
    return { kind: 'logs', logs: receive(reply.logs, mirror) };
  } catch (error) {
    return { kind: 'failed', error };
  }
}

/** POST and scan on this thread. */
class InlineChannel implements LogsChannel {
  private readonly posters = new Map<string, HttpPoster>();
  private readonly strings = new StringTable();
  private readonly mirror = new StringMirror();
  private nextId = 1;

  async request(url: string, payload: string, timeoutMs: number, network: string): Promise<Settled> {
    let poster = this.posters.get(url);
    if (!poster) this.posters.set(url, (poster = new HttpPoster(url)));
    let settled: Settled | undefined;
    await fetchLogsReply(
      { id: this.nextId++, url, payload, timeoutMs, network },
      poster,
      this.strings,
      (reply) => (settled = settle(reply, this.mirror)),
    );
    return settled!;
  }

  close(): void {
    for (const p of this.posters.values()) p.close();
  }
}

const WORKER_FILE = join(__dirname, `logs-worker${__filename.endsWith('.ts') ? '.ts' : '.js'}`);
/** TypeScript sources run through the repository's SWC hook (tools/register.js), in the worker too. */
const REGISTER = join(__dirname, '..', '..', '..', '..', 'tools', 'register.js');

/** POST and scan in a worker thread; replies are received here in the order they arrive. */
class WorkerChannel implements LogsChannel {
  private worker: Worker | undefined;
  private mirror = new StringMirror();
  private readonly pending = new Map<number, { resolve: (s: Settled) => void; timer: NodeJS.Timeout }>();
  private nextId = 1;

  request(url: string, payload: string, timeoutMs: number, network: string): Promise<Settled> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<Settled>((resolve) => {
      // The worker times the request out itself; this only covers a worker that stopped answering.
      const timer = setTimeout(
        () =>
          this.finish(id, { kind: 'transport', id, message: `logs worker gave no answer within ${timeoutMs + 5000} ms`, timedOut: true }),
        timeoutMs + 5000,
      );
      timer.unref();
      this.pending.set(id, { resolve, timer });
      const req: LogsRequest = { id, url, payload, timeoutMs, network };
      worker.postMessage(req);
    });
  }

  /** Starts the worker ahead of the first request (it loads its modules meanwhile). */
  warm(): void {
    this.worker ??= this.start();
  }

  close(): void {
    const w = this.worker;
    this.worker = undefined;
    if (w) void w.terminate();
    this.failAll('logs worker closed');
  }

  private start(): Worker {
    const worker = new Worker(WORKER_FILE, { execArgv: WORKER_FILE.endsWith('.ts') ? ['-r', REGISTER] : [] });
    worker.unref();
    // A new worker has a new string table.
    this.mirror = new StringMirror();
    worker.on('message', (reply: LogsReply) => {
      if (worker === this.worker) this.finish(reply.id, settle(reply, this.mirror));
    });
    const gone = (why: string): void => {
      if (worker !== this.worker) return;
      this.worker = undefined;
      this.failAll(why);
    };
    worker.on('error', (e) => gone(`logs worker failed: ${e.message}`));
    worker.on('exit', (code) => gone(`logs worker exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  private finish(id: number, s: Settled): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.resolve(s);
  }

  private failAll(message: string): void {
    for (const id of [...this.pending.keys()]) this.finish(id, { kind: 'transport', id, message, timedOut: false });
  }
}

/** The process's worker channel, shared by every network's reader while any is open. */
let shared: { channel: WorkerChannel; users: number } | undefined;

export interface IndexerChainReaderOptions {
  /** the network (the first field of the transfers' COPY rows the scanner builds) */
  network: string;
  /** POST and scan in a worker thread (default) or on this thread */
  worker: boolean;
  timeoutMs: number;
  onRetry?: (method: string, e: unknown, attempt: number) => void;
}

/** ChainReader with eth_getLogs through the scanner. Close it when done (the worker is shared). */
export class IndexerChainReader extends ChainReader {
  private readonly channel: LogsChannel;
  private closed = false;
  private nextId = 1;

  constructor(
    client: JsonRpcClient,
    private readonly o: IndexerChainReaderOptions,
  ) {
    super(client, MAX_ADDRESSES);
    if (o.worker) {
      shared ??= { channel: new WorkerChannel(), users: 0 };
      shared.users++;
      shared.channel.warm();
      this.channel = shared.channel;
    } else this.channel = new InlineChannel();
  }

  override async logs(filter: LogFilter, from: number, to: number): Promise<RpcLog[]> {
    return logsOf(await this.logList(filter, from, to));
  }

  /** eth_getLogs over exactly [from, to], as a LogList (ChainReader.logs' splitting and retries). */
  async logList(filter: LogFilter, from: number, to: number): Promise<LogList> {
    if (filter.addresses.length === 0) return new ArrayLogList([]);
    const groups: Array<readonly string[]> = [];
    for (let i = 0; i < filter.addresses.length; i += MAX_ADDRESSES) groups.push(filter.addresses.slice(i, i + MAX_ADDRESSES));
    const parts = await Promise.all(
      groups.map((address) => {
        const params = [{ fromBlock: toQuantity(from), toBlock: toQuantity(to), address, topics: [filter.topic0] }];
        // The client's URL pool: URL choice, failover, budget, 429 pauses, URLs behind `to` skipped.
        return this.client.pool.run((e) => this.getLogs(e.url, params), {
          method: METHOD,
          minBlock: to,
          giveUp: isRangeTooLargeError,
          onRetry: this.o.onRetry,
        });
      }),
    );
    if (parts.length === 1) return parts[0]!;
    // Address groups interleave: merged in chain order.
    const all = parts.flatMap(logsOf);
    sortLogs(all);
    return new ArrayLogList(all);
  }

  /** ChainReader.logsAdaptive as a LogList: the sub-ranges' lists are concatenated, not copied. */
  async logListAdaptive(filter: LogFilter, from: number, to: number, range: AdaptiveRange): Promise<LogList> {
    return concatLogLists(await readInRanges(from, to, range, (start, end) => this.logList(filter, start, end)));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.channel instanceof WorkerChannel) {
      if (shared && --shared.users === 0) {
        shared.channel.close();
        shared = undefined;
      }
    } else this.channel.close();
  }

  /** One attempt, answered as JsonRpcClient.call + standardizeLogs would answer it. */
  private async getLogs(url: string, params: unknown[]): Promise<LogList> {
    if (this.closed) throw new Error('eth_getLogs on a closed reader');
    const payload = JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method: METHOD, params });
    const s = await this.channel.request(url, payload, this.o.timeoutMs, this.o.network);
    switch (s.kind) {
      case 'logs':
        return s.logs;
      case 'failed':
        throw s.error;
      case 'transport':
        throw new RpcTransportError(METHOD, s.message);
      case 'http':
        // Redirects: fetch follows them.
        if (s.status >= 300 && s.status < 400)
          return new ArrayLogList(standardizeLogs(await this.client.call(METHOD, params, { retryIf: () => false })));
        throw new RpcTransportError(METHOD, `HTTP ${s.status} ${s.text.slice(0, 200)}`, s.status, parseRetryAfter(s.retryAfter));
      case 'raw':
        return new ArrayLogList(standardizeLogs(unwrap(Buffer.from(s.body.buffer, s.body.byteOffset, s.body.length).toString('utf8'))));
    }
  }
}

/** The result of a JSON-RPC reply body, or the error JsonRpcClient raises for it. */
function unwrap(text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RpcTransportError(METHOD, `body is not JSON: ${text.slice(0, 200)}`);
  }
  const res = (Array.isArray(json) ? json[0] : json) as
    { result?: unknown; error?: { code: number; message: string; data?: unknown } } | undefined;
  if (!res) throw new RpcTransportError(METHOD, 'no response for this request in the batch');
  if (res.error) throw new JsonRpcError(METHOD, res.error.code, res.error.message, res.error.data);
  if (!('result' in res)) throw new RpcTransportError(METHOD, 'response has neither result nor error');
  return res.result;
}
