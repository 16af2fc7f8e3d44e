import 'reflect-metadata';
import { loadGatewayConfig } from '@tokensvc/config';
import { createGateway } from './bootstrap';
import { loadSseSettings } from './sse/sse-settings';

/** gateway: the only public HTTP surface. */
async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const app = await createGateway(config, { sse: loadSseSettings(process.env) });
  // Graceful stop: stop accepting, finish in-flight requests, close NATS/Postgres/Redis, exit 0.
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.once(sig, () => {
      void app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  await app.listen({ port: config.port, host: config.host });
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', service: 'gateway', msg: `gateway listening on http://${config.host}:${config.port}` })}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', service: 'gateway', msg: (e as Error).message })}\n`);
  process.exit(1);
});
