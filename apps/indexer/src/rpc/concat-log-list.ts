/** Lists of logs (see log-list.ts) read one after another as one, without a copy. */
import { sortLogs, type RpcLog } from '@tokensvc/chain';
import { ArrayLogList, logsOf, type LogList } from './log-list';

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
