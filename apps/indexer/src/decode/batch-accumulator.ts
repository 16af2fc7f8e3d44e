import { type IndexingSink, shapeOf } from '@tokensvc/protocols';
import type {
  LendingEvent,
  LiquidityEvent,
  PoolStateEvent,
  ReserveRatesEvent,
  SwapEvent,
  TransferEvent,
  VaultFlowEvent,
} from '../model/decoded-batch';
import type { PoolState } from '../model/registry.types';
import type { TickDelta } from '../model/tick-delta';
import type { ContractRegistry } from '../registry/contract-registry';
import type { LogList } from '../rpc/log-list';
import { CopyWriter } from '../store/copy-writer';

/**
 * What the decoders append to while walking one batch's logs in chain order. Besides the
 * DecodedBatch event lists it keeps the write sets: pools changed (and their state per block, for
 * the rollback journal) and V3 tick liquidity deltas per (pool, tick, block).
 */
export class BatchAccumulator implements IndexingSink {
  readonly transfers: TransferEvent[] = [];
  readonly poolStates: PoolStateEvent[] = [];
  readonly swaps: SwapEvent[] = [];
  readonly liquidity: LiquidityEvent[] = [];
  readonly vaultFlows: VaultFlowEvent[] = [];
  readonly lending: LendingEvent[] = [];
  readonly reserveRates: ReserveRatesEvent[] = [];
  /** pools whose state changed, by address */
  readonly changedPools = new Set<string>();
  /** state of each changed pool at the end of each block it changed in: pool -> block -> state */
  readonly poolHistory = new Map<string, Map<number, PoolState>>();
  readonly tickDeltas = new Map<string, TickDelta>();

  /** the transfers' COPY payload, row by row as they are added (see addTransfer) */
  private copy: CopyWriter | undefined;
  /** scanned rows not copied yet: [start, end) of `src`, `count` rows */
  private readonly run: { src: Uint8Array | undefined; start: number; end: number; count: number } = {
    src: undefined,
    start: 0,
    end: 0,
    count: 0,
  };

  constructor(readonly registry: ContractRegistry) {}

  /**
   * Adds a transfer and its COPY row (`rows`: the list holding the row the logs scanner built
   * for it, and its handle; else written here). Every transfer goes through here, so the payload
   * holds exactly `transfers`, in order. Scanned rows that follow each other in their buffer
   * are copied as one run.
   */
  addTransfer(t: TransferEvent, rows?: LogList, handle = -1): void {
    this.transfers.push(t);
    if (rows && handle >= 0) {
      const src = rows.transferRows(handle);
      const start = rows.transferRowStart(handle);
      const run = this.run;
      if (run.src === src && run.end === start) {
        run.end = rows.transferRowEnd(handle);
        run.count++;
      } else {
        this.flushRun();
        run.src = src;
        run.start = start;
        run.end = rows.transferRowEnd(handle);
        run.count = 1;
      }
      return;
    }
    this.flushRun();
    const w = (this.copy ??= new CopyWriter());
    // Hashes repeat for a transaction's transfers, the network always, tokens often.
    w.plainRepeating(0, this.registry.network)
      .plain(t.blockNumber)
      .plain(t.logIndex)
      .plainRepeating(1, t.txHash)
      .plainRepeating(2, t.token)
      .plain(t.from)
      .plain(t.to)
      .plain(t.value)
      .endRow();
  }

  /** The transfers' COPY payload (once: the writer is done after this). */
  transfersCopy(): { rows: number; payload: Buffer[] } {
    this.flushRun();
    const w = this.copy;
    this.copy = undefined;
    return w ? { rows: w.rows, payload: w.finish() } : { rows: 0, payload: [] };
  }

  private flushRun(): void {
    const run = this.run;
    if (run.count === 0) return;
    (this.copy ??= new CopyWriter()).rowsFrom(run.src!, run.start, run.end, run.count);
    run.src = undefined;
    run.count = 0;
  }

  /** Records that `pool`'s cached state changed at this position. */
  touchPool(pool: string, state: PoolState, blockNumber: number, logIndex: number): void {
    state.blockNumber = blockNumber;
    state.logIndex = logIndex;
    let byBlock = this.poolHistory.get(pool);
    if (!byBlock) {
      this.changedPools.add(pool);
      this.poolHistory.set(pool, (byBlock = new Map()));
    }
    // One copy per pool and block, overwritten in place by later changes in the same block.
    const snapshot = byBlock.get(blockNumber);
    if (snapshot) Object.assign(snapshot, state);
    else byBlock.set(blockNumber, { ...state });
  }

  /** The journal rows: each changed pool's state at the end of each block it changed in. */
  historyEntries(): Array<{ pool: string; state: PoolState }> {
    const out: Array<{ pool: string; state: PoolState }> = [];
    for (const [pool, byBlock] of this.poolHistory) for (const state of byBlock.values()) out.push({ pool, state });
    return out;
  }

  addTickDelta(pool: string, tick: number, blockNumber: number, net: bigint, gross: bigint): void {
    const key = `${pool}|${tick}|${blockNumber}`;
    const d = this.tickDeltas.get(key);
    if (d) {
      d.net += net;
      d.gross += gross;
    } else this.tickDeltas.set(key, { pool, tick, blockNumber, net, gross });
  }

  /** Emits the pool's current (cached) state as a PoolStateEvent at this log. */
  emitPoolState(
    pool: string,
    family: PoolStateEvent['family'],
    state: PoolState,
    log: { blockNumber: number; logIndex: number; transactionHash: string },
  ): void {
    const ev: PoolStateEvent = {
      blockNumber: log.blockNumber,
      logIndex: log.logIndex,
      txHash: log.transactionHash,
      pool,
      family,
      reserve0: state.reserve0,
      reserve1: state.reserve1,
    };
    if (shapeOf(family) === 'concentrated') {
      ev.sqrtPriceX96 = state.sqrtPriceX96 ?? 0n;
      ev.liquidity = state.liquidity ?? 0n;
      ev.tick = state.tick ?? 0;
    }
    this.poolStates.push(ev);
  }
}
