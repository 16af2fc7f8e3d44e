/**
 * Fixed-offset readers over ABI-encoded log data and topics (lowercase or mixed-case hex with
 * 0x). Each 32-byte word is 64 hex characters; word i of `data` starts at 2 + 64 * i.
 */
const TWO_255 = 1n << 255n;
const TWO_256 = 1n << 256n;

/** uint256 word i of `data` */
export function uintWord(data: string, i: number): bigint {
  const start = 2 + 64 * i;
  if (data.length < start + 64) throw new RangeError(`log data has no word ${i}`);
  return BigInt(`0x${data.slice(start, start + 64)}`);
}

/** int256 word i of `data` (two's complement) */
export function intWord(data: string, i: number): bigint {
  const v = uintWord(data, i);
  return v >= TWO_255 ? v - TWO_256 : v;
}

/** a small signed int (int24 and the like) in word i: sign-extended in the ABI, so it fits a number */
export function smallIntWord(data: string, i: number): number {
  return Number(intWord(data, i));
}

/** address in word i of `data` (lowercase) */
export function addressWord(data: string, i: number): string {
  const start = 2 + 64 * i;
  if (data.length < start + 64) throw new RangeError(`log data has no word ${i}`);
  return `0x${data.slice(start + 24, start + 64)}`.toLowerCase();
}

/**
 * Addresses of recent address topics: logs read through the scanner share their topic strings,
 * so a Transfer's holders cost a lookup (the topic's hash is cached in the string), not two
 * fresh strings, and their events share one instance per holder.
 */
const TOPIC_ADDRESSES = new Map<string, string>();
const TOPIC_ADDRESSES_MAX = 100_000;

/** an indexed address topic (lowercase) */
export function topicAddress(topic: string | undefined): string {
  if (topic === undefined || topic.length !== 66) throw new RangeError('missing indexed address topic');
  const known = TOPIC_ADDRESSES.get(topic);
  if (known !== undefined) return known;
  const address = `0x${topic.slice(26)}`.toLowerCase();
  if (TOPIC_ADDRESSES.size >= TOPIC_ADDRESSES_MAX) TOPIC_ADDRESSES.clear();
  TOPIC_ADDRESSES.set(topic, address);
  return address;
}

/** an indexed int24 topic */
export function topicSmallInt(topic: string | undefined): number {
  if (topic === undefined || topic.length !== 66) throw new RangeError('missing indexed int topic');
  const v = BigInt(topic);
  return Number(v >= TWO_255 ? v - TWO_256 : v);
}

/** an indexed uint topic */
export function topicUint(topic: string | undefined): bigint {
  if (topic === undefined || topic.length !== 66) throw new RangeError('missing indexed uint topic');
  return BigInt(topic);
}
