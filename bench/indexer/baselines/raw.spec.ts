import { AbiCoder, zeroPadValue } from 'ethers';
import { TOPICS } from '../chain/events';
import { capSplit, cheapDecode } from './raw';

const coder = AbiCoder.defaultAbiCoder();
const topicOf = (address: string): string => zeroPadValue(address, 32);
const A = '0x00000000000000000000000000000000000000a1';
const B = '0x00000000000000000000000000000000000000b2';

describe('cheapDecode', () => {
  it('decodes amounts of every kind the bench indexes, as the ABI encodes them', () => {
    const acc = { sum: 0n, holders: new Set<string>() };
    expect(cheapDecode({ topics: [TOPICS.transfer, topicOf(A), topicOf(B)], data: coder.encode(['uint256'], [5n]) }, acc)).toBe('transfer');
    expect(acc.holders.has(B)).toBe(true);
    expect(
      cheapDecode(
        {
          topics: [TOPICS.swap, topicOf(A), topicOf(B)],
          data: coder.encode(['uint256', 'uint256', 'uint256', 'uint256'], [1n, 0n, 0n, 2n]),
        },
        acc,
      ),
    ).toBe('swap');
    expect(cheapDecode({ topics: [TOPICS.sync], data: coder.encode(['uint112', 'uint112'], [10n, 20n]) }, acc)).toBe('sync');
    expect(
      cheapDecode({ topics: [TOPICS.deposit, topicOf(A), topicOf(B)], data: coder.encode(['uint256', 'uint256'], [100n, 99n]) }, acc),
    ).toBe('deposit');
    expect(
      cheapDecode(
        { topics: [TOPICS.withdraw, topicOf(A), topicOf(B), topicOf(A)], data: coder.encode(['uint256', 'uint256'], [7n, 6n]) },
        acc,
      ),
    ).toBe('withdraw');
    expect(cheapDecode({ topics: [TOPICS.mint, topicOf(A)], data: coder.encode(['uint256', 'uint256'], [3n, 4n]) }, acc)).toBe('mint');
    expect(cheapDecode({ topics: [TOPICS.burn, topicOf(A), topicOf(B)], data: coder.encode(['uint256', 'uint256'], [1n, 1n]) }, acc)).toBe(
      'burn',
    );
    expect(acc.sum).toBe(5n + 3n + 30n + 199n + 13n + 7n + 2n);
  });

  it('counts unknown topics as other', () => {
    expect(cheapDecode({ topics: ['0x01'], data: '0x' }, { sum: 0n, holders: new Set() })).toBe('other');
  });
});

describe('capSplit', () => {
  it('splits where Infura and Alchemy suggest', () => {
    expect(
      capSplit('eth_getLogs: query returned more than 10000 results. Try with this block range [0x64, 0x68]. (-32005)', [100, 120]),
    ).toEqual([
      [100, 104],
      [105, 120],
    ]);
    expect(
      capSplit(
        'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10000 logs in the response. Based on your parameters, this block range should work: [0x64, 0x65]',
        [100, 120],
      ),
    ).toEqual([
      [100, 101],
      [102, 120],
    ]);
  });

  it('halves without a usable hint, and leaves other errors and single blocks alone', () => {
    expect(capSplit('exceed maximum block range: 2000', [1, 4000])).toEqual([
      [1, 2000],
      [2001, 4000],
    ]);
    expect(capSplit('eth_getLogs is limited to a 2,000 range', [10, 11])).toEqual([
      [10, 10],
      [11, 11],
    ]);
    // a hint at or past the end would not shrink the range
    expect(capSplit('query returned more than 10000 results. Try with this block range [0x1, 0xa].', [1, 10])).toEqual([
      [1, 5],
      [6, 10],
    ]);
    expect(capSplit('query returned more than 10000 results.', [7, 7])).toBeUndefined();
    expect(capSplit('execution reverted', [1, 10])).toBeUndefined();
    expect(capSplit('HTTP 429 Too Many Requests', [1, 10])).toBeUndefined();
  });
});
