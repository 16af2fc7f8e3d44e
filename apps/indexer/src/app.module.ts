import { Logger, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { createPgPool, PersistenceModule } from '@tokensvc/persistence';
import { pingController } from '@tokensvc/transport';
import { chainProviders } from '@tokensvc/chain';
import { SyncCatalogUseCase } from './catalog/sync-catalog.usecase';
import type { IndexerConfig } from './config/indexer-config';
import { PG_POOL, SERVICE_CONFIG } from './config.token';
import { IndexerService } from './indexer.service';
import { Deriver } from './derive';
import { DERIVATION_STAGE } from './model/derivation.port';

/**
 * The ingest pool's statements are whole batches (COPY, set-based upserts of a backfill batch),
 * and its workers wait for each other's batch connections: bounded, but longer than a request's.
 */
const INGEST_STATEMENT_TIMEOUT_MS = 300_000;
const INGEST_CONNECT_TIMEOUT_MS = 60_000;

@Module({})
export class IndexerModule {
  static forRoot(config: IndexerConfig): DynamicModule {
    const providers: Provider[] = [
      { provide: SERVICE_CONFIG, useValue: config },
      ...chainProviders(config.networks),
      // per network: a batch's transaction, the read-ahead, and the head refresh (derive/repo/transaction.ts)
      {
        provide: PG_POOL,
        useFactory: () =>
          createPgPool(
            {
              connectionString: config.databaseUrl,
              max: 2 + 3 * config.indexing.length,
              application_name: 'indexer-ingest',
              statement_timeout: INGEST_STATEMENT_TIMEOUT_MS,
              connectionTimeoutMillis: INGEST_CONNECT_TIMEOUT_MS,
            },
            (m) => new Logger('postgres').warn(m),
          ),
      },
      { provide: DERIVATION_STAGE, useClass: Deriver },
      SyncCatalogUseCase,
      IndexerService,
    ];
    return {
      module: IndexerModule,
      imports: [PersistenceModule.forRoot(config.databaseUrl, 'indexer', 4)],
      controllers: [pingController('indexer')],
      providers,
    };
  }
}
