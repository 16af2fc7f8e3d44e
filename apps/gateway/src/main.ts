import 'reflect-metadata';
import { loadGatewayConfig } from '@tokensvc/config';
import { checkBusAuth, JsonLogger } from '@tokensvc/transport';
import { adminServer, createGateway } from './bootstrap';
import { loadSseSettings } from './sse/sse-settings';

/** gateway: the only public HTTP surface. */
async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const logger = new JsonLogger('gateway', config.logLevel);
  // whether NATS and Redis refuse clients without credentials; in the production configuration they must
  await checkBusAuth('gateway', config, { usesRedis: true }, logger);
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
  const say = (msg: string): void => logger.info(msg);
  say(`gateway listening on http://${config.host}:${config.port}`);
  // The admin API on its own listener (loopback unless ADMIN_HOST says otherwise), never the public
  // one; without ADMIN_TOKEN there is nothing to serve, so no port is bound.
  if (config.adminToken !== undefined) {
    await adminServer(app).listen({ port: config.adminPort, host: config.adminHost });
    say(`admin API listening on http://${config.adminHost}:${config.adminPort}`);
  } else say('admin API off: ADMIN_TOKEN is not set');
}

main().catch((e: unknown) => {
  // the failure with its stack, as a JSON line like every other
  new JsonLogger('gateway').fatal(e);
  process.exit(1);
});
