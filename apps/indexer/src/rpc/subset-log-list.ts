/** Some of a list's logs (see log-list.ts), by index, without a copy. */
import type { RpcLog } from '@tokensvc/chain';
import type { LogList } from './log-list';

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
