/**
 * The logs of a fetched range as the pipeline reads them: by index, with RpcLog objects made
 * only when a decoder asks for one (a scanned reply keeps its logs in typed arrays until then,
 * so a range waiting in the read-ahead queue is a few buffers, not 100k objects for the garbage
 * collector to copy), and the transfer fast path's columns (see logs-scanner.ts).
 */
import { sortLogs, type RpcLog } from '@tokensvc/chain';
import { M_ADDRESS, M_BLOCK, M_BLOCK_HASH, M_LOG_INDEX, M_TOPICS_END, M_TX_HASH, META_FIELDS, type ScannedLogs } from './logs-scanner';

export interface LogList {
  readonly length: number;
  blockNumber(i: number): number;
  logIndex(i: number): number;
  blockHash(i: number): string;
  txHash(i: number): string;
  /** lowercase */
  address(i: number): string;
  topic0(i: number): string | undefined;
  /** log i as an RpcLog (a fresh object for scanned logs: use it and let it go) */
  log(i: number): RpcLog;
  /** (block number, block hash) of every log, once per run of consecutive logs with the same pair */
  forEachBlock(visit: (blockNumber: number, blockHash: string) => void): void;
  /** a handle on log i's transfer columns, or -1 when it has none (not scanned, or not transfer-shaped) */
  transferAt(i: number): number;
  /** holder addresses (lowercase) and value of a transfer-shaped log */
  transferFrom(h: number): string;
  transferTo(h: number): string;
  transferValue(h: number): bigint;
  /** the buffer holding the transfer's whole COPY row, and where it starts and ends (line break included) */
  transferRows(h: number): Uint8Array;
  transferRowStart(h: number): number;
  transferRowEnd(h: number): number;
}

/** Plain RpcLog objects (the generic path, tests). */
export class ArrayLogList implements LogList {
  constructor(readonly logs: readonly RpcLog[]) {}

  get length(): number {
    return this.logs.length;
  }

  blockNumber(i: number): number {
    return this.logs[i]!.blockNumber;
  }

  logIndex(i: number): number {
    return this.logs[i]!.logIndex;
  }

  blockHash(i: number): string {
    return this.logs[i]!.blockHash;
  }

  txHash(i: number): string {
    return this.logs[i]!.transactionHash;
  }

  address(i: number): string {
    return this.logs[i]!.address;
  }

  topic0(i: number): string | undefined {
    return this.logs[i]!.topics[0];
  }

  log(i: number): RpcLog {
    return this.logs[i]!;
  }

  forEachBlock(visit: (blockNumber: number, blockHash: string) => void): void {
    let n = -1;
    let h = '';
    for (const l of this.logs) {
      if (l.blockNumber === n && l.blockHash === h) continue;
      n = l.blockNumber;
      h = l.blockHash;
      visit(n, h);
    }
  }

  transferAt(): number {
    return -1;
  }

  transferFrom(): string {
    throw new Error('no transfer columns');
  }

  transferTo(): string {
    throw new Error('no transfer columns');
  }

  transferValue(): bigint {
    throw new Error('no transfer columns');
  }

  transferRows(): Uint8Array {
    throw new Error('no transfer columns');
  }

  transferRowStart(): number {
    throw new Error('no transfer columns');
  }

  transferRowEnd(): number {
    throw new Error('no transfer columns');
  }
}

const TWO_32 = 0x100000000n;

/** A scanned reply (see logs-scanner.ts); `strings`: the receiver's copy of the shared table when it arrived. */
export class ScannedLogList implements LogList {
  /** all data text of the reply, made when a first RpcLog is */
  private dataText: string | undefined;

  constructor(
    private readonly s: ScannedLogs,
    private readonly strings: readonly string[],
  ) {}

  get length(): number {
    return this.s.count;
  }

  blockNumber(i: number): number {
    return this.s.meta[i * META_FIELDS + M_BLOCK]!;
  }

  logIndex(i: number): number {
    return this.s.meta[i * META_FIELDS + M_LOG_INDEX]!;
  }

  blockHash(i: number): string {
    return this.s.hashes[this.s.meta[i * META_FIELDS + M_BLOCK_HASH]!]!;
  }

  txHash(i: number): string {
    return this.s.hashes[this.s.meta[i * META_FIELDS + M_TX_HASH]!]!;
  }

  address(i: number): string {
    return this.strings[this.s.meta[i * META_FIELDS + M_ADDRESS]!]!;
  }

  topic0(i: number): string | undefined {
    const from = i === 0 ? 0 : this.s.meta[(i - 1) * META_FIELDS + M_TOPICS_END]!;
    return from < this.s.meta[i * META_FIELDS + M_TOPICS_END]! ? this.strings[this.s.topics[from]!] : undefined;
  }

  log(i: number): RpcLog {
    const { meta, topics, dataEnds, hashes } = this.s;
    const m = i * META_FIELDS;
    let t = i === 0 ? 0 : meta[m - META_FIELDS + M_TOPICS_END]!;
    const topicsEnd = meta[m + M_TOPICS_END]!;
    const logTopics = new Array<string>(topicsEnd - t);
    for (let j = 0; t < topicsEnd; j++, t++) logTopics[j] = this.strings[topics[t]!]!;
    this.dataText ??= Buffer.from(this.s.data.buffer, this.s.data.byteOffset, this.s.data.length).toString('latin1');
    return {
      address: this.strings[meta[m + M_ADDRESS]!]!,
      topics: logTopics,
      data: this.dataText.slice(i === 0 ? 0 : dataEnds[i - 1]!, dataEnds[i]!),
      blockNumber: meta[m + M_BLOCK]!,
      blockHash: hashes[meta[m + M_BLOCK_HASH]!]!,
      logIndex: meta[m + M_LOG_INDEX]!,
      transactionHash: hashes[meta[m + M_TX_HASH]!]!,
    };
  }

  forEachBlock(visit: (blockNumber: number, blockHash: string) => void): void {
    const { meta, hashes } = this.s;
    let n = -1;
    let h = -1;
    for (let m = 0; m < this.s.count * META_FIELDS; m += META_FIELDS) {
      if (meta[m + M_BLOCK] === n && meta[m + M_BLOCK_HASH] === h) continue;
      n = meta[m + M_BLOCK]!;
      h = meta[m + M_BLOCK_HASH]!;
      visit(n, hashes[h]!);
    }
  }

  transferAt(i: number): number {
    return this.s.transfer[i]!;
  }

  transferFrom(k: number): string {
    return this.strings[this.s.transferFrom[k]!]!;
  }

  transferTo(k: number): string {
    return this.strings[this.s.transferTo[k]!]!;
  }

  transferValue(k: number): bigint {
    const l = this.s.transferLimbs;
    const at = k * 8;
    // most values fit in 53 bits: one conversion, no bigint arithmetic
    let high = 0;
    for (let i = 2; i < 8; i++) high |= l[at + i]!;
    if (high === 0 && l[at + 1]! < 0x200000) return BigInt(l[at + 1]! * 0x100000000 + l[at]!);
    let v = 0n;
    for (let i = 7; i >= 0; i--) v = v * TWO_32 + BigInt(l[at + i]!);
    return v;
  }

  transferRows(): Uint8Array {
    return this.s.rows;
  }

  transferRowStart(k: number): number {
    return k === 0 ? 0 : this.s.rowEnds[k - 1]!;
  }

  transferRowEnd(k: number): number {
    return this.s.rowEnds[k]!;
  }

  /** The logs as RpcLog objects. */
  toArray(): RpcLog[] {
    const out = new Array<RpcLog>(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.log(i);
    return out;
  }
}

/** Transfer handles of a concatenation: the part in the high bits. */
const PART = 2 ** 24;

/** Consecutive lists (the sub-ranges of an adaptive eth_getLogs read) as one. */
export class ConcatLogList implements LogList {
  readonly length: number;
  private readonly starts: number[] = [];
  /** the part of the last index looked up (reads go in order) */
  private part = 0;

  constructor(private readonly parts: readonly LogList[]) {
    let n = 0;
    for (const p of parts) {
      this.starts.push(n);
      n += p.length;
    }
    this.length = n;
    if (parts.length >= 128) throw new Error('too many parts');
  }

  private at(i: number): number {
    let p = this.part;
    if (i < this.starts[p]! || i >= this.starts[p]! + this.parts[p]!.length) {
      p = 0;
      while (p + 1 < this.parts.length && this.starts[p + 1]! <= i) p++;
      this.part = p;
    }
    return p;
  }

  blockNumber(i: number): number {
    const p = this.at(i);
    return this.parts[p]!.blockNumber(i - this.starts[p]!);
  }

  logIndex(i: number): number {
    const p = this.at(i);
    return this.parts[p]!.logIndex(i - this.starts[p]!);
  }

  blockHash(i: number): string {
    const p = this.at(i);
    return this.parts[p]!.blockHash(i - this.starts[p]!);
  }

  txHash(i: number): string {
    const p = this.at(i);
    return this.parts[p]!.txHash(i - this.starts[p]!);
  }

  address(i: number): string {
    const p = this.at(i);
    return this.parts[p]!.address(i - this.starts[p]!);
  }

  topic0(i: number): string | undefined {
    const p = this.at(i);
    return this.parts[p]!.topic0(i - this.starts[p]!);
  }

  log(i: number): RpcLog {
    const p = this.at(i);
    return this.parts[p]!.log(i - this.starts[p]!);
  }

  forEachBlock(visit: (blockNumber: number, blockHash: string) => void): void {
    for (const p of this.parts) p.forEachBlock(visit);
  }

  transferAt(i: number): number {
    const p = this.at(i);
    const h = this.parts[p]!.transferAt(i - this.starts[p]!);
    return h < 0 ? h : p * PART + h;
  }

  transferFrom(h: number): string {
    return this.parts[Math.floor(h / PART)]!.transferFrom(h % PART);
  }

  transferTo(h: number): string {
    return this.parts[Math.floor(h / PART)]!.transferTo(h % PART);
  }

  transferValue(h: number): bigint {
    return this.parts[Math.floor(h / PART)]!.transferValue(h % PART);
  }

  transferRows(h: number): Uint8Array {
    return this.parts[Math.floor(h / PART)]!.transferRows(h % PART);
  }

  transferRowStart(h: number): number {
    return this.parts[Math.floor(h / PART)]!.transferRowStart(h % PART);
  }

  transferRowEnd(h: number): number {
    return this.parts[Math.floor(h / PART)]!.transferRowEnd(h % PART);
  }
}

/** The logs of `list` at `indices` (increasing), e.g. without those of contracts a range must not read yet. */
export class SubsetLogList implements LogList {
  constructor(
    private readonly list: LogList,
    private readonly indices: readonly number[],
  ) {}

  get length(): number {
    return this.indices.length;
  }

  blockNumber(i: number): number {
    return this.list.blockNumber(this.indices[i]!);
  }

  logIndex(i: number): number {
    return this.list.logIndex(this.indices[i]!);
  }

  blockHash(i: number): string {
    return this.list.blockHash(this.indices[i]!);
  }

  txHash(i: number): string {
    return this.list.txHash(this.indices[i]!);
  }

  address(i: number): string {
    return this.list.address(this.indices[i]!);
  }

  topic0(i: number): string | undefined {
    return this.list.topic0(this.indices[i]!);
  }

  log(i: number): RpcLog {
    return this.list.log(this.indices[i]!);
  }

  forEachBlock(visit: (blockNumber: number, blockHash: string) => void): void {
    let n = -1;
    let h = '';
    for (let i = 0; i < this.indices.length; i++) {
      const bn = this.blockNumber(i);
      const bh = this.blockHash(i);
      if (bn === n && bh === h) continue;
      n = bn;
      h = bh;
      visit(n, h);
    }
  }

  transferAt(i: number): number {
    return this.list.transferAt(this.indices[i]!);
  }

  transferFrom(h: number): string {
    return this.list.transferFrom(h);
  }

  transferTo(h: number): string {
    return this.list.transferTo(h);
  }

  transferValue(h: number): bigint {
    return this.list.transferValue(h);
  }

  transferRows(h: number): Uint8Array {
    return this.list.transferRows(h);
  }

  transferRowStart(h: number): number {
    return this.list.transferRowStart(h);
  }

  transferRowEnd(h: number): number {
    return this.list.transferRowEnd(h);
  }
}

export function asLogList(logs: readonly RpcLog[] | LogList): LogList {
  return isLogArray(logs) ? new ArrayLogList(logs) : logs;
}

const isLogArray = (logs: readonly RpcLog[] | LogList): logs is readonly RpcLog[] => Array.isArray(logs);

/** Every log as an RpcLog object (a new array). */
export function logsOf(list: LogList): RpcLog[] {
  if (list instanceof ArrayLogList) return [...list.logs];
  const out = new Array<RpcLog>(list.length);
  for (let i = 0; i < out.length; i++) out[i] = list.log(i);
  return out;
}

/** Several lists as one (no copy). */
export function concatLogLists(parts: LogList[]): LogList {
  const nonEmpty = parts.filter((p) => p.length > 0);
  if (nonEmpty.length === 0) return new ArrayLogList([]);
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  if (nonEmpty.length < 128) return new ConcatLogList(nonEmpty);
  const all = nonEmpty.flatMap(logsOf);
  sortLogs(all);
  return new ArrayLogList(all);
}
