import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { JsonLogger, startMicroservice } from '@tokensvc/transport';
import { StatusTrackerModule, TrackingQueue } from './wiring/app.module';
import { loadTrackerConfig } from './config/tracker-config';
import { registerTrackerMetrics } from './metrics';
import { loadPushConfig } from './push/push-config';

/** status-tracker: tracks cross-chain orders to a terminal state (BullMQ) and answers their status. */
async function main(): Promise<void> {
  const config = loadTrackerConfig();
  const { health } = await startMicroservice(
    'status-tracker',
    StatusTrackerModule.forRoot(config, loadPushConfig(process.env)),
    config,
    (app) => ({
      postgres: async () => (await app.get(DataSource).query('SELECT 1')).length === 1,
      redis: async () => typeof (await app.get(TrackingQueue).counts())['waiting'] === 'number',
    }),
    { usesRedis: true },
  );
  registerTrackerMetrics(health.registry);
}

main().catch((e: unknown) => {
  // the failure with its stack, as a JSON line like every other
  new JsonLogger('status-tracker').fatal(e);
  process.exit(1);
});
