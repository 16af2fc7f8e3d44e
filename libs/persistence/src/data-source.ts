import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { NetworkEntity } from './entities/network.entity';
import { PlatformEntity } from './entities/platform.entity';
import { Catalog1763769600000 } from './migrations/1763769600000-catalog';
import { Indexer1763856000000 } from './migrations/1763856000000-indexer';
import { ApiKeys1763942400000 } from './migrations/1763942400000-api-keys';
import { Orders1764300000000 } from './migrations/1764300000000-orders';
import { CrossChainOrders1764400000000 } from './migrations/1764400000000-cross-chain-orders';
import { StatusPush1764500000000 } from './migrations/1764500000000-status-push';
import { TrackerEvents1764600000000 } from './migrations/1764600000000-tracker-events';
import { BalancesBlock1764700000000 } from './migrations/1764700000000-balances-block';
import { TransfersBrin1764800000000 } from './migrations/1764800000000-transfers-brin';
import { BalancesPriorBlocks1764900000000 } from './migrations/1764900000000-balances-prior-blocks';
import { CursorFinalizedLabel1764985000000 } from './migrations/1764985000000-cursor-finalized-label';
import { TokenHistoryFrom1764990000000 } from './migrations/1764990000000-token-history-from';
import { WebhookOwner1764950000000 } from './migrations/1764950000000-webhook-owner';
import { CandlesPricedOhlc1764960000000 } from './migrations/1764960000000-candles-priced-ohlc';
import { CursorAheadOfChain1764970000000 } from './migrations/1764970000000-cursor-ahead-of-chain';
import { OrdersClient1765000000000 } from './migrations/1765000000000-orders-client';
import { SwapVolumes1765010000000 } from './migrations/1765010000000-swap-volumes';
import { TokenReadIndexes1764000000000 } from './migrations/1764000000000-token-read-indexes';
import { IndexerIngest1763870000000 } from './migrations/1763870000000-indexer-ingest';
import { IndexerDerive1763880000000 } from './migrations/1763880000000-indexer-derive';

export const ENTITIES = [NetworkEntity, PlatformEntity];
/** Ordered; a new migration is appended here and in its own timestamped file with up and down. */
export const MIGRATIONS = [
  Catalog1763769600000,
  Indexer1763856000000,
  IndexerIngest1763870000000,
  IndexerDerive1763880000000,
  ApiKeys1763942400000,
  TokenReadIndexes1764000000000,
  Orders1764300000000,
  CrossChainOrders1764400000000,
  StatusPush1764500000000,
  TrackerEvents1764600000000,
  BalancesBlock1764700000000,
  TransfersBrin1764800000000,
  BalancesPriorBlocks1764900000000,
  WebhookOwner1764950000000,
  CandlesPricedOhlc1764960000000,
  CursorAheadOfChain1764970000000,
  CursorFinalizedLabel1764985000000,
  TokenHistoryFrom1764990000000,
  OrdersClient1765000000000,
  SwapVolumes1765010000000,
];

export interface DataSourceOptions {
  url: string;
  /** pool size per process */
  poolSize?: number;
  applicationName?: string;
  /** server-side statement timeout of the pool's connections (the services' pools: DEFAULT_STATEMENT_TIMEOUT_MS; migrations: none) */
  statementTimeoutMs?: number;
}

export function createDataSource(opts: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: opts.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    extra: {
      max: opts.poolSize ?? 10,
      application_name: opts.applicationName ?? 'tokensvc',
      connectionTimeoutMillis: 5000,
      ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
    },
  });
}

/** Creates the database named in `url` when it does not exist (a fresh Postgres has only `postgres`). */
export async function ensureDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!/^[a-zA-Z0-9_]+$/.test(name)) throw new Error(`database name "${name}" must be letters, digits and underscores`);
  u.pathname = '/postgres';
  const client = new Client({ connectionString: u.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } catch (e) {
    // Two processes may race to create it; the loser sees duplicate_database (42P04).
    if ((e as { code?: string }).code !== '42P04') throw e;
  } finally {
    await client.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  u.pathname = '/postgres';
  const client = new Client({ connectionString: u.toString() });
  await client.connect();
  try {
    // pg's Pool.end() resolves before its sockets have closed: wait (briefly) for the database's
    // sessions to go, so FORCE only ends sessions that were really left behind. Ending a session
    // that is still closing emits an error on its client that nobody listens to any more.
    for (let waited = 0; waited < 3_000; waited += 50) {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (rows[0]!.n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function migrate(url: string): Promise<string[]> {
  await ensureDatabase(url);
  const ds = createDataSource({ url, poolSize: 1, applicationName: 'tokensvc-migrate' });
  await ds.initialize();
  try {
    const ran = await ds.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}
