import { AbiCoder, zeroPadValue } from 'ethers';
import { TOPICS } from '../chain/events';
import { cheapDecode } from './raw';

const coder = AbiCoder.defaultAbiCoder();
const topicOf = (address: string): string => zeroPadValue(address, 32);
const A = '0x00000000000000000000000000000000000000a1';
const B = '0x00000000000000000000000000000000000000b2';

describe('cheapDecode', () => {
  it('decodes amounts of every kind the bench indexes, as the ABI encodes them', () => {
    const acc = { sum: 0n, holders: new Set<string>() };
    expect(cheapDecode({ topics: [TOPICS.transfer, topicOf(A), topicOf(B)], data: coder.encode(['uint256'], [5n]) }, acc)).toBe('transfer');
    expect(acc.holders.has(B)).toBe(true);
    expect(cheapDecode({ topics: [TOPICS.swap, topicOf(A), topicOf(B)], data: coder.encode(['uint256', 'uint256', 'uint256', 'uint256'], [1n, 0n, 0n, 2n]) }, acc)).toBe('swap');
    expect(cheapDecode({ topics: [TOPICS.sync], data: coder.encode(['uint112', 'uint112'], [10n, 20n]) }, acc)).toBe('sync');
    expect(cheapDecode({ topics: [TOPICS.deposit, topicOf(A), topicOf(B)], data: coder.encode(['uint256', 'uint256'], [100n, 99n]) }, acc)).toBe('deposit');
    expect(cheapDecode({ topics: [TOPICS.withdraw, topicOf(A), topicOf(B), topicOf(A)], data: coder.encode(['uint256', 'uint256'], [7n, 6n]) }, acc)).toBe('withdraw');
    expect(cheapDecode({ topics: [TOPICS.mint, topicOf(A)], data: coder.encode(['uint256', 'uint256'], [3n, 4n]) }, acc)).toBe('mint');
    expect(cheapDecode({ topics: [TOPICS.burn, topicOf(A), topicOf(B)], data: coder.encode(['uint256', 'uint256'], [1n, 1n]) }, acc)).toBe('burn');
    expect(acc.sum).toBe(5n + 3n + 30n + 199n + 13n + 7n + 2n);
  });

  it('counts unknown topics as other', () => {
    expect(cheapDecode({ topics: ['0x01'], data: '0x' }, { sum: 0n, holders: new Set() })).toBe('other');
  });
});
