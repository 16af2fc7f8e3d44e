/**
 * Event topics from their declared signatures: each family writes its events as the contract
 * declares them (`Sync(uint112 reserve0, uint112 reserve1)`), and topic0 is derived here once at
 * load (keccak256 of the canonical signature), so the hot path still compares plain strings.
 */
import { EventFragment } from 'ethers';

export function topicOf(signature: string): string {
  return EventFragment.from(signature).topicHash;
}

/** Each declared signature's topic0, under the same keys. */
export function eventTopics<K extends string>(signatures: Readonly<Record<K, string>>): Readonly<Record<K, string>> {
  return Object.fromEntries(Object.entries<string>(signatures).map(([key, signature]) => [key, topicOf(signature)])) as Record<K, string>;
}
