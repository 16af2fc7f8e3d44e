import { parseBlockHeader, standardizeLogs } from './types';

const raw = (block: number, index: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  address: '0xAbCdEf0000000000000000000000000000000001',
  topics: ['0x01'],
  data: '0x',
  blockNumber: `0x${block.toString(16)}`,
  blockHash: `0x${'11'.repeat(32)}`,
  logIndex: `0x${index.toString(16)}`,
  transactionHash: `0x${'22'.repeat(32)}`,
  ...extra,
});

describe('standardizeLogs (distrust RPC responses)', () => {
  it('lowercases addresses, parses numbers, sorts by (block, log index) and drops removed logs', () => {
    const logs = standardizeLogs([raw(5, 1), raw(4, 9), raw(5, 0), raw(6, 0, { removed: true })]);
    expect(logs.map((l) => [l.blockNumber, l.logIndex])).toEqual([
      [4, 9],
      [5, 0],
      [5, 1],
    ]);
    expect(logs[0]!.address).toBe('0xabcdef0000000000000000000000000000000001');
  });

  it('rejects duplicate positions and incomplete logs', () => {
    expect(() => standardizeLogs([raw(5, 1), raw(5, 1)])).toThrow('two logs at block 5 index 1');
    expect(() => standardizeLogs([raw(5, 1, { blockHash: undefined })])).toThrow('incomplete log');
    expect(() => standardizeLogs([raw(5, 1, { logIndex: 7 })])).toThrow('not a hex quantity');
    expect(() => standardizeLogs({})).toThrow('not an array');
  });
});

describe('parseBlockHeader', () => {
  it('checks the block is the one asked for', () => {
    const b = { number: '0x10', hash: '0xaa', parentHash: '0xbb', timestamp: '0x5' };
    expect(parseBlockHeader(b, 16)).toEqual({ number: 16, hash: '0xaa', parentHash: '0xbb', timestamp: 5 });
    expect(() => parseBlockHeader(b, 17)).toThrow('asked for block 17, got 16');
    expect(() => parseBlockHeader(null, 17)).toThrow('block 17 not found');
  });
});
