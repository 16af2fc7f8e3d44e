/** How one EventPump transaction splits its events (pure, unit-tested). */

/** events per action, as emitted by the contracts (see EventPump.sol) */
export const EVENTS_PER = { transfer: 1, swap: 4, flow: 3 } as const;

export interface PumpMix {
  transfers: number;
  swaps: number;
  flows: number;
  /** exact number of events one pump call emits */
  events: number;
}

/** ~40 % plain transfers, ~40 % swap events (Transfer in/out, Sync, Swap), ~20 % vault flows. */
export function pumpMix(eventsPerTx: number): PumpMix {
  if (!Number.isInteger(eventsPerTx) || eventsPerTx < 10) throw new Error(`eventsPerTx must be an integer >= 10, got ${eventsPerTx}`);
  const swaps = Math.floor((eventsPerTx * 0.4) / EVENTS_PER.swap);
  const flows = Math.floor((eventsPerTx * 0.2) / EVENTS_PER.flow);
  const transfers = eventsPerTx - swaps * EVENTS_PER.swap - flows * EVENTS_PER.flow;
  return { transfers, swaps, flows, events: eventsPerTx };
}

export interface ChainPlan {
  blocks: number;
  txsPerBlock: number;
  mix: PumpMix;
  /** events the pump blocks hold in all */
  events: number;
}

/** Enough pump blocks to reach `targetEvents`. */
export function planChain(targetEvents: number, eventsPerTx: number, txsPerBlock: number): ChainPlan {
  const mix = pumpMix(eventsPerTx);
  const blocks = Math.max(1, Math.ceil(targetEvents / (eventsPerTx * txsPerBlock)));
  return { blocks, txsPerBlock, mix, events: blocks * txsPerBlock * eventsPerTx };
}
