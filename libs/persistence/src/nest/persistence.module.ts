import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createDataSource } from '../data-source';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from '../pg-pool';

export const DATABASE_URL = Symbol('DATABASE_URL');

/** Provides one initialised TypeORM DataSource per app and closes it on shutdown. */
@Global()
@Module({})
export class PersistenceModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly ds: DataSource) {}

  static forRoot(url: string, applicationName: string, poolSize = 10): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        {
          provide: DataSource,
          useFactory: async () => {
            const ds = createDataSource({ url, applicationName, poolSize, statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS });
            return ds.initialize();
          },
        },
      ],
      exports: [DataSource],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}
