import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { loadPlatforms } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import type { IndexerConfig } from './config/indexer-config';
import { PG_POOL, SERVICE_CONFIG } from './config.token';
import { DERIVATION_STAGE, type DerivationStage } from './model/derivation.port';
import { NetworkIndexer } from './pipeline/network-indexer';
import { ChainEventPublisher } from './publish/chain-event-publisher';
import { PublishLoop } from './publish/publish-loop';

/** Starts one NetworkIndexer per enabled network and the JetStream publisher; stops them on shutdown. */
@Injectable()
export class IndexerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Indexer');
  readonly indexers = new Map<Network, NetworkIndexer>();
  private publisher: ChainEventPublisher | undefined;
  private publishLoop: PublishLoop | undefined;
  private bootstrapped = false;

  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: IndexerConfig,
    @Inject(DERIVATION_STAGE) private readonly derive: DerivationStage,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Once per process, whatever calls the hook twice (Nest's microservice runs the bootstrap hooks
    // again in listen() after an explicit init()): two writers with one lease holder id would race.
    if (this.bootstrapped) return;
    this.bootstrapped = true;
    if (this.config.publishEvents) {
      this.publisher = new ChainEventPublisher({
        natsUrl: this.config.natsUrl,
        stream: this.config.eventsStream,
        subjectPrefix: this.config.eventsSubjectPrefix,
        replicas: this.config.jetstreamReplicas,
      });
      await this.publisher.connect();
      this.publishLoop = new PublishLoop(this.pool, this.publisher, this.logger);
    }
    const platforms = loadPlatforms(
      this.config,
      this.config.indexing.map((c) => c.network),
    );
    for (const cfg of this.config.indexing) {
      const indexer = new NetworkIndexer({
        cfg,
        pool: this.pool,
        derive: this.derive,
        platforms: platforms.filter((p) => p.network === cfg.network),
        instanceId: this.config.instanceId,
        leaseTtlMs: this.config.leaseTtlMs,
        prefetch: this.config.prefetch,
        targetLogsPerRange: this.config.targetLogsPerRange,
        initialLogRange: this.config.initialLogRange,
        rangesPerBatch: this.config.rangesPerBatch,
        maxBatchLogs: this.config.maxBatchLogs,
        readyLagBlocks: this.config.readyLagBlocks,
        rpcTimeoutMs: this.config.rpcTimeoutMs,
        logsWorker: this.config.logsWorker,
        heldBalancePairs: this.config.heldBalancePairs,
        refreshHeadMs: this.config.refreshHeadMs,
        logger: this.logger,
        onCommitted: (n) => this.publishLoop?.kick(n),
      });
      this.indexers.set(cfg.network, indexer);
      indexer.start();
    }
  }

  /** every network within the readiness lag of its head */
  get ready(): boolean {
    return [...this.indexers.values()].every((i) => i.ready);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.indexers.values()].map((i) => i.stop()));
    await this.publishLoop?.close();
    await this.publisher?.close();
    await this.pool.end();
  }
}
