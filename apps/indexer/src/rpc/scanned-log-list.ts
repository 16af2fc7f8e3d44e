/** A scanned reply's logs as a LogList (see log-list.ts), read from its columns (see logs-scanner.ts). */
import type { RpcLog } from '@tokensvc/chain';
import type { LogList } from './log-list';
import { M_ADDRESS, M_BLOCK, M_BLOCK_HASH, M_LOG_INDEX, M_TOPICS_END, M_TX_HASH, META_FIELDS, type ScannedLogs } from './scanned-logs';

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
