import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadServiceConfig } from '@tokensvc/config';
import { startMicroservice } from '@tokensvc/transport';
import { IndexerModule } from './app.module';
import { HeadFollower } from './heads/head-follower.service';

/** indexer: follows each network over JSON-RPC and builds the read models in Postgres. */
async function main(): Promise<void> {
  const config = loadServiceConfig('indexer');
  const { health, app } = await startMicroservice('indexer', IndexerModule.forRoot(config), config, (a) => ({
    postgres: async () => (await a.get(DataSource).query('SELECT 1')).length === 1,
    chains: async () => config.networks.every((n) => a.get(HeadFollower).heads.has(n.network)),
  }));
  health.registry.registerMetric(HeadFollower.gauge);
  void app;
}

main().catch((e: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', service: 'indexer', msg: (e as Error).message })}\n`);
  process.exit(1);
});
