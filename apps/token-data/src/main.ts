import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadServiceConfig } from '@tokensvc/config';
import { startMicroservice } from '@tokensvc/transport';
import { TokenDataModule } from './app.module';

/** token-data: answers every data query over NATS from the Postgres read models. */
async function main(): Promise<void> {
  const config = loadServiceConfig('token-data');
  await startMicroservice('token-data', TokenDataModule.forRoot(config), config, (app) => ({
    postgres: async () => (await app.get(DataSource).query('SELECT 1')).length === 1,
  }));
}

main().catch((e: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', service: 'token-data', msg: (e as Error).message })}\n`);
  process.exit(1);
});
