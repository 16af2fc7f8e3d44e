import 'reflect-metadata';
import { JsonLogger, startMicroservice } from '@tokensvc/transport';
import { ChainClients } from './chain/chain-clients';
import { networksWithoutRouter, routerCodeProblems } from './chain/router-code';
import { loadQuoteConfig } from './config/quote-config';
import { LiquidityGraphs } from './graph/liquidity-graphs';
import { QuoteModule } from './app.module';
import { registerQuoteMetrics } from './metrics';

/** quote: the order builder (liquidity graph, routing, tx building, simulation). Scaled on its own. */
async function main(): Promise<void> {
  const config = loadQuoteConfig();
  const log = new JsonLogger('quote');
  for (const network of networksWithoutRouter(config.deployments)) {
    log.warn(
      `no Router configured for ${network}: its orders, estimates and approvals are refused (400) until ROUTER_ADDRESS_${network.toUpperCase()} is set (npm run router -- deploy --network ${network})`,
    );
  }
  // A configured Router must exist: a wrong address would only show as reverted simulations.
  const problems = await routerCodeProblems(config.deployments, new ChainClients(config.deployments, 0)).catch((e: unknown) => {
    log.warn(`could not check the Routers' code at start (${(e as Error).message}); readiness waits for the RPC`);
    return [];
  });
  if (problems.length > 0) throw new Error(`quote cannot start:\n  - ${problems.join('\n  - ')}`);
  const { health } = await startMicroservice(
    'quote',
    QuoteModule.forRoot(config),
    config,
    (app) => ({
      // Ready once every network's liquidity graph is loaded (quotes never wait for the database).
      graph: async () => app.get(LiquidityGraphs).ready,
      chains: async () => {
        const chains = app.get(ChainClients);
        await Promise.all(config.deployments.map((d) => chains.get(d.network).call('eth_blockNumber')));
        return true;
      },
      // its relay queue and gas counters
    }),
    { usesRedis: true },
  );
  registerQuoteMetrics(health.registry);
}

main().catch((e: unknown) => {
  // the failure with its stack, as a JSON line like every other
  new JsonLogger('quote').fatal(e);
  process.exit(1);
});
