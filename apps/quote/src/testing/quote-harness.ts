/**
 * Test helper: the quote service's real Nest wiring (QuoteModule) as an application context over
 * a test database, a devnet RPC URL and a test JetStream stream, without the NATS transport.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import type { JsonRpcClient } from '@tokensvc/chain';
import { QuoteModule } from '../app.module';
import { loadQuoteConfig, type QuoteConfig } from '../config/quote-config';
import { LiquidityGraphs } from '../graph/liquidity-graphs';
import { PoolEventStream } from '../graph/pool-event-stream';
import { type DevnetNetworkLike, readChainPools } from './chain-pools';
import type { TestPoolEvents } from './pool-events';

export interface HarnessOptions {
  databaseUrl: string;
  natsUrl: string;
  rpcUrl: string;
  manifestPath: string;
  stream: string;
  prefix: string;
  /** the quote's gas wallets (`relayerKeyEnv(manifestPath)` of @tokensvc/devnet: RELAYER_PRIVATE_KEY_<NETWORK>) */
  relayerKeys: Record<string, string>;
  /** more environment (e.g. RELAY_* settings) */
  env?: Record<string, string>;
}

export interface QuoteHarness {
  app: INestApplicationContext;
  config: QuoteConfig;
  graphs: LiquidityGraphs;
  events: PoolEventStream;
  close(): Promise<void>;
}

export async function startQuoteHarness(o: HarnessOptions): Promise<QuoteHarness> {
  const config = loadQuoteConfig({
    DATABASE_URL: o.databaseUrl,
    NATS_URL: o.natsUrl,
    NETWORKS: 'ethereum',
    RPC_URL_ETHEREUM: o.rpcUrl,
    DEVNET_MANIFEST: o.manifestPath,
    ...o.relayerKeys,
    QUOTE_EVENTS_STREAM: o.stream,
    QUOTE_EVENTS_PREFIX: o.prefix,
    QUOTE_GAS_PRICE_TTL_MS: '0',
    LOG_LEVEL: 'warn',
    ...o.env,
  });
  const app = await NestFactory.createApplicationContext(QuoteModule.forRoot(config), { logger: ['error', 'warn'] });
  await app.init();
  const graphs = app.get(LiquidityGraphs);
  await graphs.start();
  return { app, config, graphs, events: app.get(PoolEventStream), close: () => app.close() };
}

/**
 * Publishes every pool's chain state (read from `rpc`) at `block` on `events` as the indexer would
 * after a block, then waits (10 s at most) until the harness's graph applied them all and settled.
 */
export async function syncGraphTo(
  harness: QuoteHarness,
  events: TestPoolEvents,
  rpc: JsonRpcClient,
  net: DevnetNetworkLike,
  block: number,
): Promise<void> {
  const pools = await readChainPools(rpc, net, { ticks: false });
  for (const [i, p] of pools.entries()) await events.publish('ethereum', p, { block, logIndex: i });
  const graph = harness.graphs.get('ethereum');
  const deadline = Date.now() + 10_000;
  while (pools.some((p) => graph.pool(p.address)?.position.block !== block)) {
    if (Date.now() > deadline) throw new Error('the graph did not apply the pool events');
    await new Promise((r) => setTimeout(r, 20));
  }
  await harness.graphs.settled();
}
