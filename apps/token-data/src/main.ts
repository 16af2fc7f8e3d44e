import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadServiceConfig } from '@tokensvc/config';
import { JsonLogger, startMicroservice } from '@tokensvc/transport';
import { TokenDataModule } from './app.module';
import { registerTokenDataMetrics } from './metrics';

/** token-data: answers every data query over NATS from the Postgres read models. */
async function main(): Promise<void> {
  const config = loadServiceConfig('token-data');
  // Joins its queue group once its Postgres pool answers (startMicroservice waits for the checks).
  const { health } = await startMicroservice('token-data', TokenDataModule.forRoot(config), config, (app) => ({
    postgres: async () => (await app.get(DataSource).query('SELECT 1')).length === 1,
  }));
  registerTokenDataMetrics(health.registry);
}

main().catch((e: unknown) => {
  // the failure with its stack, as a JSON line like every other
  new JsonLogger('token-data').fatal(e);
  process.exit(1);
});
