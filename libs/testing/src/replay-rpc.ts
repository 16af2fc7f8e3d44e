/**
 * A replay JSON-RPC server on loopback: it serves a recorded stretch of a real chain (logs with
 * their block numbers and timestamps) as a chain whose head a test moves, and forwards every other
 * call (eth_call, eth_getCode, eth_getBalance, ...) to a node (an anvil holding the contracts'
 * state at the start of the recording).
 *
 * Answered here: eth_chainId, net_version, eth_blockNumber, eth_getBlockByNumber / eth_getBlockByHash
 * (made-up hashes: keccak256 of "replay:<chainId>:<number>", each block's parentHash the hash of the
 * one before; timestamps from the recording, blocks without logs filled at `blockSeconds` steps
 * (default 12, Ethereum's; e.g. 2 for a Polygon recording) after the last known block), eth_getLogs (by range or block hash, address and topics filters; nothing
 * above the head). Forwarded: everything else, with every block tag, number or EIP-1898 block object
 * replaced by 'latest' (the node's blocks are not the replay's: its state is the state at the start).
 * JSON-RPC batches are answered as batches (the forwarded part as one batch to the node).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keccak256, toUtf8Bytes } from 'ethers';
import type { Answer, Call } from './rpc-emulator';

export interface ReplayLog {
  address: string;
  blockNumber: number;
  transactionHash: string;
  transactionIndex: number;
  logIndex: number;
  topics: string[];
  data: string;
}

export interface ReplayRpcOptions {
  /** the node the other calls go to */
  upstream: string;
  /** the recorded logs (any order; served sorted by block and log index) */
  logs: ReplayLog[];
  /** timestamps (unix seconds) of recorded blocks; at least the first block's */
  blockTimes: Map<number, number>;
  /** the first and last block of the replay (the chain's blocks below `firstBlock` exist too, without logs) */
  firstBlock: number;
  lastBlock: number;
  /** the head served at start (default lastBlock) */
  head?: number;
  chainId?: number;
  /** port on 127.0.0.1 (0: any free port) */
  port?: number;
  /**
   * seconds between blocks without logs and the block before (default 12). A recorded time that
   * falls behind the filled ones is refused, so take the chain's shortest block time (Polygon: 2).
   */
  blockSeconds?: number;
}

export interface ReplayRpc {
  url: string;
  /** the head block served now */
  readonly head: number;
  /** moves the head (within [firstBlock - 1, lastBlock]) */
  setHead(block: number): void;
  blockHash(block: number): string;
  blockTime(block: number): number;
  readonly stats: { calls: number; forwarded: number; logsServed: number };
  close(): Promise<void>;
}

const BLOCK_SECONDS = 12;
const hex = (n: number | bigint): string => `0x${n.toString(16)}`;

/**
 * A demeter-fetch `raw.csv` (block_number, block_timestamp (UTC), transaction_hash,
 * transaction_index, log_index, topics (a Python list), data) of the contract at `address`: its
 * logs and the recorded blocks' timestamps.
 */
export function readDemeterRawCsv(path: string, address: string): { logs: ReplayLog[]; blockTimes: Map<number, number> } {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const header = lines.shift()!.split(',');
  const want = ['block_number', 'block_timestamp', 'transaction_hash', 'transaction_index', 'log_index', 'topics', 'data'];
  if (want.some((w, i) => header[i] !== w)) throw new Error(`${path}: unexpected columns ${header.join(',')}`);
  const logs: ReplayLog[] = [];
  const blockTimes = new Map<number, number>();
  for (const line of lines) {
    // the topics column is the only quoted one: "['0x..', '0x..']"
    const m = /^(\d+),([^,]+),(0x[0-9a-fA-F]+),(\d+),(\d+),"(\[[^\]]*\])",(0x[0-9a-fA-F]*)$/.exec(line.trim());
    if (!m) throw new Error(`${path}: cannot read the line ${line.slice(0, 120)}`);
    const blockNumber = Number(m[1]);
    const time = Date.parse(`${m[2]!.replace(' ', 'T')}Z`) / 1000;
    if (!Number.isFinite(time)) throw new Error(`${path}: bad timestamp ${m[2]}`);
    blockTimes.set(blockNumber, time);
    logs.push({
      address: address.toLowerCase(),
      blockNumber,
      transactionHash: m[3]!.toLowerCase(),
      transactionIndex: Number(m[4]),
      logIndex: Number(m[5]),
      topics: (JSON.parse(m[6]!.replace(/'/g, '"')) as string[]).map((t) => t.toLowerCase()),
      data: m[7]!.toLowerCase(),
    });
  }
  return { logs, blockTimes };
}

/** Timestamps of every block from `first` to `last`: recorded ones as recorded, the others `step` seconds (default 12) after the block before. */
export function fillBlockTimes(known: Map<number, number>, first: number, last: number, step = BLOCK_SECONDS): Map<number, number> {
  const firstTime = known.get(first);
  if (firstTime === undefined) throw new Error(`the first block ${first} has no recorded timestamp`);
  const out = new Map<number, number>([[first, firstTime]]);
  for (let b = first + 1; b <= last; b++) {
    const t = known.get(b) ?? out.get(b - 1)! + step;
    if (t < out.get(b - 1)!)
      throw new Error(
        `block ${b}: recorded time ${t} is before block ${b - 1}'s (${out.get(b - 1)}), which was filled at ${step}-second steps`,
      );
    out.set(b, t);
  }
  return out;
}

function toBlockNumber(tag: unknown, head: number): number | undefined {
  if (typeof tag !== 'string') return undefined;
  if (tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') return head;
  if (tag === 'earliest') return 0;
  if (/^0x[0-9a-fA-F]+$/.test(tag)) return parseInt(tag, 16);
  return undefined;
}

/** Parameter positions of block tags in the forwarded methods. */
const TAG_PARAM: Record<string, number> = {
  eth_call: 1,
  eth_estimateGas: 1,
  eth_getCode: 1,
  eth_getBalance: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
  eth_createAccessList: 1,
};

export async function startReplayRpc(opts: ReplayRpcOptions): Promise<ReplayRpc> {
  const chainId = opts.chainId ?? 1;
  const { firstBlock, lastBlock } = opts;
  const step = opts.blockSeconds ?? BLOCK_SECONDS;
  const times = fillBlockTimes(opts.blockTimes, firstBlock, lastBlock, step);
  const firstTime = times.get(firstBlock)!;
  const blockTime = (n: number): number =>
    times.get(n) ?? (n < firstBlock ? firstTime - step * (firstBlock - n) : times.get(lastBlock)! + step * (n - lastBlock));
  const hashes = new Map<number, string>();
  const byHash = new Map<string, number>();
  const blockHash = (n: number): string => {
    let h = hashes.get(n);
    if (h === undefined) {
      h = keccak256(toUtf8Bytes(`replay:${chainId}:${n}`));
      hashes.set(n, h);
      byHash.set(h, n);
    }
    return h;
  };
  const logs = [...opts.logs].sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  // index of the first log of each block at or after a number: logs are sorted, so a binary search
  const firstLogAt = (block: number): number => {
    let lo = 0;
    let hi = logs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (logs[mid]!.blockNumber < block) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let head = opts.head ?? lastBlock;
  const stats = { calls: 0, forwarded: 0, logsServed: 0 };

  const header = (n: number): Record<string, unknown> | null => {
    if (n < 0 || n > head) return null;
    return {
      number: hex(n),
      hash: blockHash(n),
      parentHash: n === 0 ? `0x${'0'.repeat(64)}` : blockHash(n - 1),
      timestamp: hex(blockTime(n)),
      nonce: '0x0000000000000000',
      sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
      logsBloom: `0x${'0'.repeat(512)}`,
      transactionsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      stateRoot: `0x${'0'.repeat(64)}`,
      receiptsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      miner: `0x${'0'.repeat(40)}`,
      difficulty: '0x0',
      totalDifficulty: '0x0',
      extraData: '0x',
      size: '0x0',
      gasLimit: hex(30_000_000),
      gasUsed: '0x0',
      baseFeePerGas: hex(10_000_000_000),
      mixHash: `0x${'0'.repeat(64)}`,
      transactions: [],
      uncles: [],
    };
  };

  const topicMatches = (want: unknown, got: string | undefined): boolean => {
    if (want === null || want === undefined) return true;
    if (got === undefined) return false;
    if (Array.isArray(want)) return want.length === 0 || want.some((w) => typeof w === 'string' && w.toLowerCase() === got);
    return typeof want === 'string' && want.toLowerCase() === got;
  };

  const getLogs = (filter: Record<string, unknown>): unknown[] => {
    let from: number;
    let to: number;
    if (typeof filter['blockHash'] === 'string') {
      const n = byHash.get((filter['blockHash'] as string).toLowerCase());
      if (n === undefined || n > head) throw Object.assign(new Error('unknown block'), { code: -32000 });
      from = to = n;
    } else {
      from = toBlockNumber(filter['fromBlock'] ?? 'latest', head) ?? head;
      to = toBlockNumber(filter['toBlock'] ?? 'latest', head) ?? head;
    }
    if (to > head) throw Object.assign(new Error(`block range extends beyond current head block ${head}`), { code: -32000 });
    const addressFilter = filter['address'];
    const addresses =
      addressFilter === undefined || addressFilter === null
        ? undefined
        : new Set((Array.isArray(addressFilter) ? addressFilter : [addressFilter]).map((a) => String(a).toLowerCase()));
    const topics = Array.isArray(filter['topics']) ? (filter['topics'] as unknown[]) : [];
    const out: unknown[] = [];
    for (let i = firstLogAt(from); i < logs.length && logs[i]!.blockNumber <= to; i++) {
      const l = logs[i]!;
      if (addresses && !addresses.has(l.address)) continue;
      if (!topics.every((t, k) => topicMatches(t, l.topics[k]))) continue;
      out.push({
        address: l.address,
        topics: l.topics,
        data: l.data,
        blockNumber: hex(l.blockNumber),
        blockHash: blockHash(l.blockNumber),
        transactionHash: l.transactionHash,
        transactionIndex: hex(l.transactionIndex),
        logIndex: hex(l.logIndex),
        removed: false,
      });
    }
    stats.logsServed += out.length;
    return out;
  };

  /** the answer, or undefined when the call goes to the node */
  const local = (call: Call): unknown => {
    const p = call.params ?? [];
    switch (call.method) {
      case 'eth_chainId':
        return hex(chainId);
      case 'net_version':
        return String(chainId);
      case 'eth_blockNumber':
        return hex(head);
      case 'eth_getBlockByNumber': {
        const n = toBlockNumber(p[0], head);
        if (n === undefined) throw Object.assign(new Error(`invalid block tag ${String(p[0])}`), { code: -32602 });
        return header(n);
      }
      case 'eth_getBlockByHash': {
        const n = byHash.get(String(p[0]).toLowerCase());
        return n === undefined ? null : header(n);
      }
      case 'eth_getLogs':
        return getLogs((p[0] ?? {}) as Record<string, unknown>);
      default:
        return undefined;
    }
  };

  const forwardable = (call: Call): Call => {
    const at = TAG_PARAM[call.method];
    if (at === undefined || !call.params || call.params.length <= at) return { ...call, jsonrpc: '2.0' };
    const params = [...call.params];
    params[at] = 'latest';
    return { ...call, jsonrpc: '2.0', params };
  };

  const forward = async (calls: Call[]): Promise<Answer[]> => {
    if (calls.length === 0) return [];
    stats.forwarded += calls.length;
    const res = await fetch(opts.upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls.map(forwardable)),
    });
    const body = (await res.json()) as Answer[] | Answer;
    if (!Array.isArray(body))
      return calls.map((c) => ({
        jsonrpc: '2.0',
        id: c.id ?? null,
        error: body.error ?? { code: -32603, message: 'upstream answered no array' },
      }));
    const byId = new Map(body.map((a) => [a.id, a]));
    return calls.map(
      (c) => byId.get(c.id ?? null) ?? { jsonrpc: '2.0', id: c.id ?? null, error: { code: -32603, message: 'upstream gave no answer' } },
    );
  };

  const answerAll = async (calls: Call[]): Promise<Answer[]> => {
    stats.calls += calls.length;
    const out: Array<Answer | undefined> = [];
    const remote: Array<{ i: number; call: Call }> = [];
    for (const [i, call] of calls.entries()) {
      try {
        const result = local(call);
        if (result === undefined) remote.push({ i, call: { ...call, id: i } });
        else out[i] = { jsonrpc: '2.0', id: call.id ?? null, result };
      } catch (e) {
        const err = e as Error & { code?: number };
        out[i] = { jsonrpc: '2.0', id: call.id ?? null, error: { code: err.code ?? -32603, message: err.message } };
      }
    }
    const forwarded = await forward(remote.map((r) => r.call));
    for (const [k, r] of remote.entries()) out[r.i] = { ...forwarded[k]!, id: calls[r.i]!.id ?? null };
    return out as Answer[];
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Call | Call[];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
    } catch {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
      return;
    }
    const batch = Array.isArray(body);
    const answers = await answerAll(Array.isArray(body) ? body : [body]);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(batch ? answers : answers[0]));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: e.message } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get head() {
      return head;
    },
    setHead(block: number) {
      if (block < firstBlock - 1 || block > lastBlock)
        throw new Error(`head ${block} outside the replay (${firstBlock - 1}..${lastBlock})`);
      head = block;
    },
    blockHash,
    blockTime,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
