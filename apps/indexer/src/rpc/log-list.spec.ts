import { TOPICS } from '@tokensvc/protocols';
import { concatLogLists } from './concat-log-list';
import { ArrayLogList, logsOf, type LogList } from './log-list';
import { scanLogsReply } from './logs-scanner';
import { StringTable } from './string-table';
import { SubsetLogList } from './subset-log-list';
import { StringMirror, receive } from './logs-wire';

const hex = (n: number, len: number): string => n.toString(16).padStart(len, '0');
const word = (n: number): string => `0x${hex(n, 64)}`;

/** A scanned reply of `n` transfers from block `from` on (two logs a block). */
function scanned(from: number, n: number, mirror: StringMirror, table: StringTable): LogList {
  const result = Array.from({ length: n }, (_, i) => ({
    address: `0x${hex(0xaa, 40)}`,
    topics: [TOPICS.transfer, word(i + 1), word(i + 2)],
    data: word(1000 + i),
    blockNumber: `0x${(from + (i >> 1)).toString(16)}`,
    blockHash: word(from + (i >> 1)),
    logIndex: `0x${(i & 1).toString(16)}`,
    transactionHash: word(7),
  }));
  const s = scanLogsReply(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result })), table, 'ethereum');
  if (!s) throw new Error('not scanned');
  return receive(s, mirror);
}

const view = (l: LogList): unknown[] =>
  Array.from({ length: l.length }, (_, i) => [
    l.blockNumber(i),
    l.logIndex(i),
    l.blockHash(i),
    l.txHash(i),
    l.address(i),
    l.topic0(i),
    l.log(i),
  ]);

describe('LogList', () => {
  const mirror = new StringMirror();
  const table = new StringTable();
  const a = scanned(10, 5, mirror, table);
  const b = scanned(13, 4, mirror, table);

  it('reads scanned logs as the RpcLog objects they stand for, through concatenations and subsets', () => {
    const all = [...logsOf(a), ...logsOf(b)];
    const concat = concatLogLists([a, new ArrayLogList([]), b]);
    expect(view(concat)).toEqual(view(new ArrayLogList(all)));
    const subset = new SubsetLogList(concat, [0, 3, 5, 8]);
    expect(view(subset)).toEqual(view(new ArrayLogList([all[0]!, all[3]!, all[5]!, all[8]!])));
    const blocks: Array<[number, string]> = [];
    subset.forEachBlock((n, h) => blocks.push([n, h]));
    expect(blocks).toEqual([10, 11, 13, 14].map((n) => [n, word(n)]));
  });

  it('keeps transfer handles and rows of every part', () => {
    const concat = concatLogLists([a, b]);
    const rows: string[] = [];
    for (let i = 0; i < concat.length; i++) {
      const h = concat.transferAt(i);
      expect(h).toBeGreaterThanOrEqual(0);
      const log = concat.log(i);
      expect([concat.transferFrom(h), concat.transferTo(h), concat.transferValue(h)]).toEqual([
        `0x${log.topics[1]!.slice(26)}`,
        `0x${log.topics[2]!.slice(26)}`,
        BigInt(log.data),
      ]);
      rows.push(Buffer.from(concat.transferRows(h).subarray(concat.transferRowStart(h), concat.transferRowEnd(h))).toString('latin1'));
    }
    expect(rows[6]).toBe(`ethereum\t13\t1\t${word(7)}\t0x${hex(0xaa, 40)}\t0x${hex(2, 40)}\t0x${hex(3, 40)}\t1001\n`);
    expect(new ArrayLogList(logsOf(a)).transferAt()).toBe(-1);
  });
});
