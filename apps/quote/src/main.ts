import 'reflect-metadata';
import { loadServiceConfig } from '@tokensvc/config';
import { startMicroservice } from '@tokensvc/transport';
import { ChainProviders } from '@tokensvc/chain';
import { QuoteModule } from './app.module';

/** quote: the order builder (liquidity graph, routing, tx building, simulation, relaying). Scaled on its own. */
async function main(): Promise<void> {
  const config = loadServiceConfig('quote');
  await startMicroservice('quote', QuoteModule.forRoot(config), config, (app) => ({
    chains: async () => {
      const providers = [...app.get(ChainProviders).byNetwork.values()];
      return (await Promise.all(providers.map((p) => p.getBlockNumber().then(() => true)))).every(Boolean);
    },
  }));
}

main().catch((e: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', service: 'quote', msg: (e as Error).message })}\n`);
  process.exit(1);
});
