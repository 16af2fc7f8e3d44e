import 'reflect-metadata';
import { JsonLogger, startMicroservice } from '@tokensvc/transport';
import { ChainClients } from './chain/chain-clients';
import { loadQuoteConfig } from './config/quote-config';
import { LiquidityGraphs } from './graph/liquidity-graphs';
import { QuoteModule } from './app.module';
import { registerQuoteMetrics } from './metrics';

/** quote: the order builder (liquidity graph, routing, tx building, simulation). Scaled on its own. */
async function main(): Promise<void> {
  const config = loadQuoteConfig();
  const { health } = await startMicroservice('quote', QuoteModule.forRoot(config), config, (app) => ({
    // Ready once every network's liquidity graph is loaded (quotes never wait for the database).
    graph: async () => app.get(LiquidityGraphs).ready,
    chains: async () => {
      const chains = app.get(ChainClients);
      await Promise.all(config.deployments.map((d) => chains.get(d.network).call('eth_blockNumber')));
      return true;
    },
  }));
  registerQuoteMetrics(health.registry);
}

main().catch((e: unknown) => {
  // the failure with its stack, as a JSON line like every other
  new JsonLogger('quote').fatal(e);
  process.exit(1);
});
