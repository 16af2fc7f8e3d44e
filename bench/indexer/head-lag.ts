/**
 * Head lag: with the indexer caught up, mine a block of pump events every `intervalMs` and measure,
 * per block, the time from the moment it was mined to the moment the indexer's cursor reached it.
 */
import { queuePump } from './chain/generate';
import { pumpMix } from './chain/mix';
import type { BenchRpc } from './chain/rpc';
import { DEPLOYER, type BenchWorld } from './chain/world';
import { BlockWriter } from './chain/writer';
import { sleep } from './proc';

export interface HeadLagOptions {
  blocks: number;
  intervalMs: number;
  eventsPerBlock: number;
  /** after the last block, wait at most this long for the cursor */
  settleMs: number;
}

export interface HeadLagSample {
  block: number;
  /** undefined: the cursor never reached the block within the settle time */
  lagMs?: number;
}

export async function measureHeadLag(
  rpc: BenchRpc,
  world: BenchWorld,
  cursor: () => Promise<number>,
  o: HeadLagOptions,
): Promise<HeadLagSample[]> {
  const writer = new BlockWriter(rpc, DEPLOYER);
  await writer.syncNonce();
  const mix = pumpMix(o.eventsPerBlock);
  const minedAt = new Map<number, number>();
  const seenAt = new Map<number, number>();
  let mining = true;
  const poll = (async (): Promise<void> => {
    let settleUntil = Infinity;
    const deadline = (): boolean => !mining && (seenAt.size === minedAt.size || performance.now() > settleUntil);
    while (!deadline()) {
      const at = await cursor();
      const now = performance.now();
      for (const [b] of minedAt) if (b <= at && !seenAt.has(b)) seenAt.set(b, now);
      if (!mining && settleUntil === Infinity) settleUntil = now + o.settleMs;
      await sleep(10);
    }
  })();
  try {
    const start = performance.now();
    for (let i = 0; i < o.blocks; i++) {
      await sleep(start + i * o.intervalMs - performance.now());
      queuePump(writer, world.pump, mix, 1, 1_000_000 + i);
      const block = await writer.mine(undefined, false);
      minedAt.set(block, performance.now());
    }
  } finally {
    mining = false;
    await poll;
  }
  return [...minedAt].map(([block, at]) => {
    const seen = seenAt.get(block);
    return { block, lagMs: seen === undefined ? undefined : seen - at };
  });
}
