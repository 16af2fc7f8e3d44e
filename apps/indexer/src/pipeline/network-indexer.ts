import { JsonRpcClient, sleep } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { METRICS } from '../metrics';
import type { TokenSeed } from '../model/registry.types';
import { findCommonAncestor } from '../reorg/common-ancestor';
import { rollbackTo } from '../reorg/rollback';
import type { ContractRegistry } from '../registry/contract-registry';
import { IndexerChainReader } from '../rpc/logs-reader';
import { ensureCursor, readCursor } from '../store/cursor.repo';
import { LeaseLostError } from '../store/lease.repo';
import { prunePoolHistory } from '../store/pools.repo';
import { poolQuery } from '../store/sql-tx';
import { pruneTickDeltas } from '../store/ticks.repo';
import { AheadOfChain } from './ahead-of-chain';
import { BatchSync, ReorgDetected } from './batch-sync';
import { bootstrapScope, needsBootstrap, nothingStored } from './bootstrap-scope';
import { HeldBalances } from './held-balances';
import { HELD_BALANCE_PAIRS, type NetworkIndexerOptions } from './network-indexer-options';
import { NetworkLease } from './network-lease';
import { NetworkPosition, type NetworkStatus } from './network-position';
import { ChainMovedError } from './range-prefetcher';
import { loadRegistry } from './registry-loader';

/**
 * One network's writer: holds the lease, backfills from the cursor to the head with ranges read
 * ahead of the writer, then follows the head; detects reorgs by parent hash (and by the head's
 * hash when the height did not move), rolls back to the common ancestor and re-applies.
 * Any failure reloads state from Postgres and resumes from the cursor.
 */
export class NetworkIndexer {
  readonly network: Network;
  private readonly pos: NetworkPosition;
  private registry: ContractRegistry | undefined;
  private pendingSeeds: TokenSeed[] = [];
  private stopped = false;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** see dataAheadOfChainNow */
  private readonly aheadOfChain: AheadOfChain;
  private lastPrune = 0;
  private lastRefresh = 0;
  /** balance changes of written batches not in the balances yet */
  private readonly held: HeldBalances;
  private readonly reader: IndexerChainReader;
  private readonly batches: BatchSync;
  private readonly q: ReturnType<typeof poolQuery>;
  private readonly lease: NetworkLease;
  /** standby: when the head and the stored cursor were last read, and whether that worked */
  private lastStandbyCheck = 0;
  private standbyOk = false;

  constructor(private readonly o: NetworkIndexerOptions) {
    this.network = o.cfg.network;
    this.pos = new NetworkPosition(this.network, o.cfg.startBlock, o.readyLagBlocks, o.progressLogMs ?? 5_000, o.logger);
    const onRetry = (method: string, e: unknown): void => {
      METRICS.rpcRetries.inc({ network: this.network, method });
      o.logger.warn(`${this.network}: retrying ${method}: ${(e as Error).message}`);
    };
    const urls = o.cfg.rpcUrls?.length ? o.cfg.rpcUrls : [o.cfg.rpcUrl];
    const client = new JsonRpcClient(urls, { timeoutMs: o.rpcTimeoutMs, onRetry, maxRps: o.cfg.maxRps });
    this.q = poolQuery(o.pool);
    // Every URL may vouch for the cursor: with several, the safe head can drop below it when one falls behind.
    this.aheadOfChain = new AheadOfChain(
      this.q,
      this.network,
      urls.length > 1 ? [...urls, ...(o.cfg.fallbackRpcUrls ?? [])] : (o.cfg.fallbackRpcUrls ?? []),
      o.rpcTimeoutMs,
      o.logger,
    );
    this.reader = new IndexerChainReader(client, {
      network: this.network,
      worker: o.logsWorker ?? true,
      timeoutMs: o.rpcTimeoutMs,
      onRetry,
    });
    this.held = new HeldBalances(o.pool, this.network, o.heldBalancePairs ?? HELD_BALANCE_PAIRS);
    this.lease = new NetworkLease(o.pool, this.network, o.instanceId, o.leaseTtlMs, o.logger, () => this.wake?.());
    this.batches = new BatchSync(o, this.reader, {
      lease: this.lease,
      held: this.held,
      stopped: () => this.stopped,
      head: () => this.pos.head,
      committed: (built, finalizedBlock, balances, started) => {
        this.pos.committed(built, finalizedBlock, balances, started);
        this.o.onCommitted?.(this.network);
        this.pos.afterCommit(built);
      },
    });
  }

  /** the node's latest block as last seen (-1 before the first poll) */
  get head(): number {
    return this.pos.head;
  }

  get cursorBlock(): number {
    return this.pos.cursorBlock;
  }

  /** caught up within the readiness lag, and not ahead of the chain the node serves */
  get ready(): boolean {
    if (!this.lease.held && !this.standbyOk) return false;
    return this.pos.withinLag && !this.aheadOfChain.value;
  }

  /**
   * The indexed data holds blocks the node's chain does not have (found below the cursor, not
   * rolled back yet): what the API serves for this network is not the chain's current state.
   */
  get dataAheadOfChainNow(): boolean {
    return this.aheadOfChain.value;
  }

  status(now = Date.now()): NetworkStatus {
    return this.pos.status(now, this.ready, this.lease.held ? 'leader' : 'standby');
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    this.reader.close();
    await this.lease.release();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (
          !(await this.lease.acquire(
            () => this.stopped,
            (ms) => this.pause(ms),
            () => this.standby(),
          ))
        )
          break;
        try {
          await this.init();
          await this.follow();
        } finally {
          this.lease.pauseRenewal();
        }
        failures = 0;
      } catch (e) {
        if (this.stopped) break;
        if (e instanceof ChainMovedError) {
          this.o.logger.warn(`${this.network}: ${e.message}; reading again`);
          continue;
        }
        failures++;
        const level = e instanceof LeaseLostError ? 'warn' : 'error';
        this.o.logger[level]({
          msg: `${this.network}: indexing stopped, resuming from the cursor`,
          network: this.network,
          error: (e as Error).message,
        });
        await this.pause(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)));
      }
    }
  }

  /**
   * Between lease checks while another replica holds the lease: keeps this one ready to take over
   * (the registry loaded once, the RPC node's head and the stored cursor read every second or
   * poll interval), so /status shows the leader's progress and readiness says whether the data is
   * caught up. Taking over reloads everything (init) from what the leader committed.
   */
  private async standby(): Promise<void> {
    const now = Date.now();
    if (now - this.lastStandbyCheck < Math.max(this.o.cfg.pollMs, 1_000)) return;
    this.lastStandbyCheck = now;
    try {
      if (!this.registry) {
        const loaded = await loadRegistry(
          this.q,
          this.reader.client,
          this.network,
          this.o.platforms,
          this.o.cfg.listedTokens,
          this.o.cfg.pools ?? 'listed',
        );
        this.registry = loaded.registry;
        this.pendingSeeds = loaded.pendingSeeds;
        this.o.logger.log({ msg: 'standby warm: registry loaded, watching the lease', network: this.network, ms: Date.now() - now });
      }
      this.pos.setHead((await this.reader.latestHeader()).number);
      const cursor = await readCursor(this.q, this.network);
      if (cursor) {
        this.pos.cursor = cursor;
        this.aheadOfChain.show(cursor.aheadOfChain);
      }
      this.standbyOk = true;
    } catch (e) {
      if (this.standbyOk)
        this.o.logger.warn({ msg: 'standby check failed (will retry)', network: this.network, error: (e as Error).message });
      this.standbyOk = false;
    }
  }

  /** (Re)loads the cursor and the registry from Postgres; the balances catch up with the cursor. */
  private async init(): Promise<void> {
    const pos = this.pos;
    pos.cursor = await ensureCursor(this.q, this.network, this.o.cfg.startBlock);
    // Left set by a stop before the rollback: the data is still taken as ahead until the chain is checked.
    this.aheadOfChain.show(pos.cursor.aheadOfChain);
    pos.cursor = await this.held.reload(pos.cursor, this.lease.holder, (m) => this.o.logger.log(m));
    let loaded = await loadRegistry(
      this.q,
      this.reader.client,
      this.network,
      this.o.platforms,
      this.o.cfg.listedTokens,
      this.o.cfg.pools ?? 'listed',
    );
    if (needsBootstrap(this.o.cfg, pos.cursor) && (await nothingStored(this.q, this.network))) {
      // A start block with history before it: the scope's state at the block before, then logs from it.
      pos.setHead((await this.reader.latestHeader()).number);
      const done = await bootstrapScope({
        pool: this.o.pool,
        reader: this.reader,
        derive: this.o.derive,
        cfg: this.o.cfg,
        platforms: this.o.platforms,
        holder: this.lease.holder,
        head: pos.head,
        pendingSeeds: loaded.pendingSeeds,
        log: (m) => this.o.logger.log(m),
      });
      if (done) {
        this.o.logger.log({ msg: 'start-block bootstrap written', network: this.network, ...done });
        pos.cursor = (await readCursor(this.q, this.network))!;
        loaded = await loadRegistry(
          this.q,
          this.reader.client,
          this.network,
          this.o.platforms,
          this.o.cfg.listedTokens,
          this.o.cfg.pools ?? 'listed',
        );
      }
    }
    this.registry = loaded.registry;
    this.pendingSeeds = loaded.pendingSeeds;
    pos.reloaded();
    this.o.onCommitted?.(this.network);
  }

  private async follow(): Promise<void> {
    while (!this.stopped) {
      this.lease.check();
      const latest = await this.reader.latestHeader();
      this.pos.setHead(latest.number);
      const cursor = this.pos.cursor!;
      if (latest.number >= cursor.blockNumber) this.aheadOfChain.nodeCaughtUp();
      if (cursor.blockNumber < latest.number) {
        try {
          await this.batches.run({ cursor, registry: this.registry!, pendingSeeds: this.pendingSeeds }, latest.number);
          // Batches linked to the cursor by parent hash: the data is on the chain (moveCursor cleared the row's flag).
          this.aheadOfChain.show(false);
        } catch (e) {
          if (!(e instanceof ReorgDetected)) throw e;
          await this.repairReorg();
        }
        continue;
      }
      // Nothing new: the tip itself may have been replaced (same height, other hash).
      if (cursor.blockHash !== '' && latest.number === cursor.blockNumber && latest.hash !== cursor.blockHash) {
        await this.repairReorg();
        continue;
      }
      if (latest.number < cursor.blockNumber) {
        // The node serves a chain below the cursor: a reloaded or resynced node, a reorg onto a
        // shorter chain, or a node merely behind. Rolled back at once unless another URL still has
        // the cursor's block; waiting for the chain to pass the old height would serve blocks that
        // no longer exist until then.
        if (await this.aheadOfChain.check(cursor, latest.number)) await this.repairReorg();
        else await this.pause(this.o.cfg.pollMs);
        continue;
      }
      // The node has the cursor's block: a flag left from a stop before the rollback no longer holds.
      if (this.aheadOfChain.value) await this.aheadOfChain.set(false);
      this.pos.markCaughtUp();
      this.lease.check();
      await this.refreshHeadIfDue();
      await this.pruneIfDue();
      await this.pause(this.o.cfg.pollMs);
    }
  }

  private async repairReorg(): Promise<void> {
    const cursor = this.pos.cursor!;
    const head = this.pos.head;
    // Blocks above the node's head cannot be the ancestor (some nodes refuse to be asked for them).
    const found = await findCommonAncestor(
      this.q,
      this.reader,
      this.network,
      head >= 0 ? Math.min(cursor.blockNumber, head) : cursor.blockNumber,
    );
    const ancestor = found ?? { number: this.o.cfg.startBlock - 1, hash: '' };
    const depth = cursor.blockNumber - ancestor.number;
    const detail = {
      network: this.network,
      from: cursor.blockNumber,
      ancestor: ancestor.number,
      depth,
      finalityDepth: this.o.cfg.finalityDepth,
    };
    if (depth > this.o.cfg.finalityDepth) {
      METRICS.deepReorgs.inc({ network: this.network });
      this.o.logger.error({ msg: 'ALERT: reorg deeper than the finality depth; repairing', alert: 'deep_reorg', ...detail });
    } else this.o.logger.warn({ msg: 'reorg detected; rolling back to the common ancestor', ...detail });
    await rollbackTo(this.o.pool, this.o.derive, this.network, ancestor.number, ancestor.hash, {
      holder: this.lease.holder,
      ttlMs: this.lease.ttlMs,
    });
    METRICS.reorgs.inc({ network: this.network });
    this.pos.rolledBack();
    // rewindCursor cleared the row's flag in the rollback's transaction.
    this.aheadOfChain.show(false);
    await this.init();
  }

  /** State only eth_call gives (share prices, rates) is refreshed at the head, outside batches. */
  private async refreshHeadIfDue(): Promise<void> {
    if (this.o.refreshHeadMs <= 0 || Date.now() - this.lastRefresh < this.o.refreshHeadMs) return;
    this.lastRefresh = Date.now();
    try {
      await this.o.derive.refreshHead(this.network, this.cursorBlock);
    } catch (e) {
      this.o.logger.warn(`${this.network}: head refresh failed: ${(e as Error).message}`);
    }
  }

  /** Shortens the rollback journals once a minute: below two finality depths only the latest pool state matters. */
  private async pruneIfDue(): Promise<void> {
    if (Date.now() - this.lastPrune < 60_000 || !this.lease.held) return;
    this.lastPrune = Date.now();
    const before = this.cursorBlock - 2 * this.o.cfg.finalityDepth;
    if (before <= 0) return;
    await prunePoolHistory(this.q, this.network, before);
    await pruneTickDeltas(this.q, this.network, before);
  }

  private async pause(ms: number): Promise<void> {
    if (this.stopped) return;
    await Promise.race([sleep(ms), new Promise<void>((r) => (this.wake = r))]);
    this.wake = undefined;
  }
}
