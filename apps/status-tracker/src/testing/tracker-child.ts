/**
 * Test helper run as its own process (spawned with an IPC channel): the status tracker's real Nest
 * wiring (tracking worker, sweep, status use case) against the test database, the test's BullMQ
 * prefix and the world's devnet, following Across (TrackerWorld.trackerEnv: CROSS_CHAIN_BRIDGE=
 * across), so a test can SIGKILL it mid-way and start another. Argument: JSON of TrackerChildArgs.
 * Messages: it sends `{ type: 'ready' }` once the worker runs; it answers `{ type: 'status', id,
 * orderId, txHash }` (a status request, as the gateway would send it) with `{ type: 'reply', id,
 * status }` or `{ type: 'reply', id, error }`. SIGTERM closes it cleanly.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { AcrossBridgeConfig } from '@tokensvc/bridge';
import { StatusTrackerModule } from '../wiring/app.module';
import { loadTrackerConfig } from '../config/tracker-config';
import { CrossChainStatusUseCase } from '../status/cross-chain-status.usecase';

export interface TrackerChildArgs {
  /** the tracker's settings (TrackerWorld.trackerEnv) */
  env: Record<string, string>;
  /** Across's SpokePools (TrackerWorld.across); without it the env's DEVNET_MANIFEST gives them */
  across?: AcrossBridgeConfig;
}

export type TrackerChildRequest = { type: 'status'; id: number; orderId: string; txHash: string };
export type TrackerChildMessage = { type: 'ready' } | { type: 'reply'; id: number; status?: string; error?: string };

async function main(): Promise<void> {
  const a = JSON.parse(process.argv[2]!) as TrackerChildArgs;
  const send = (m: TrackerChildMessage): void => void process.send?.(m);
  const app = await NestFactory.createApplicationContext(StatusTrackerModule.forRoot(loadTrackerConfig(a.env, { across: a.across })), {
    logger: ['error'],
  });
  await app.init();
  const status = app.get(CrossChainStatusUseCase);
  process.on('message', (m: TrackerChildRequest) => {
    if (m.type !== 'status') return;
    status.execute({ orderId: m.orderId, txHash: m.txHash }).then(
      (r) => send({ type: 'reply', id: m.id, status: r.status }),
      (e: Error) => send({ type: 'reply', id: m.id, error: e.message }),
    );
  });
  // Without the parent there is nobody to stop us: leave rather than track forever.
  process.on('disconnect', () => void app.close().finally(() => process.exit(0)));
  process.on('SIGTERM', () => void app.close().finally(() => process.exit(0)));
  send({ type: 'ready' });
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
