import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { JsonLogger, startMicroservice } from '@tokensvc/transport';
import { loadPlatforms } from '@tokensvc/chain';
import { IndexerModule } from './app.module';
import { preflightScopes } from './catalog/preflight';
import { loadIndexerConfig } from './config/indexer-config';
import { IndexerService } from './indexer.service';
import { registerIndexerMetrics } from './metrics';
import { checkPlatformOptions } from '@tokensvc/protocols';

/** indexer: follows each network over JSON-RPC and builds the read models in Postgres. */
async function main(): Promise<void> {
  const config = loadIndexerConfig();
  // Before anything is written (no Postgres connection yet): the RPC URLs serve the right chains,
  // the start blocks are not in the future, the scopes have something to index and every contract
  // they name has code; START_DAYS_<NETWORK> becomes a block here.
  const platforms = loadPlatforms(
    config,
    config.indexing.map((c) => c.network),
  );
  // Each platform's options (a near-fork's fee, ...) as its protocol module takes them.
  checkPlatformOptions(platforms);
  const checked = await preflightScopes(
    config.indexing.map((c) => ({
      network: c.network,
      rpcUrls: [...(c.rpcUrls ?? [c.rpcUrl]), ...(c.fallbackRpcUrls ?? [])],
      startBlock: c.startBlockGiven ? c.startBlock : undefined,
      startDays: c.startDays,
      listedTokens: c.listedTokens,
      platforms: platforms.filter((p) => p.network === c.network),
    })),
  );
  for (const c of config.indexing) c.startBlock = checked.find((s) => s.network === c.network)!.startBlock;
  // Ready (in its queue group, probes pass) once Postgres answers; caught up (GET /health/caught-up)
  // once the backfill is done and the data is the chain's: a long backfill never fails a rollout.
  const { app, health } = await startMicroservice(
    'indexer',
    IndexerModule.forRoot(config),
    config,
    (a) => ({ postgres: async () => (await a.get(DataSource).query('SELECT 1')).length === 1 }),
    {
      caughtUp: (a) => ({
        caughtUp: async () => a.get(IndexerService).ready,
        // Down while the network's indexed data holds blocks its node no longer has (until the rollback).
        ...Object.fromEntries(
          config.indexing.map(({ network }) => [
            `${network}DataOnChain`,
            async () => !a.get(IndexerService).indexers.get(network)?.dataAheadOfChainNow,
          ]),
        ),
      }),
    },
  );
  registerIndexerMetrics(health.registry);
  // Per network: head, cursor, lag, rate and ETA (what `npm start` shows during a backfill).
  health.addJsonRoute('/status', () => ({ networks: [...app.get(IndexerService).indexers.values()].map((i) => i.status()) }));
}

main().catch((e: unknown) => {
  // the failure with its stack, as a JSON line like every other
  new JsonLogger('indexer').fatal(e);
  process.exit(1);
});
