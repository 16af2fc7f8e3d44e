/**
 * Test helper: the quote service's real Nest wiring (QuoteModule) as an application context over
 * a test database, a devnet RPC URL and a test JetStream stream, without the NATS transport.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { QuoteModule } from '../app.module';
import { loadQuoteConfig, type QuoteConfig } from '../config/quote-config';
import { LiquidityGraphs } from '../graph/liquidity-graphs';
import { PoolEventStream } from '../graph/pool-event-stream';

export interface HarnessOptions {
  databaseUrl: string;
  natsUrl: string;
  rpcUrl: string;
  manifestPath: string;
  stream: string;
  prefix: string;
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
    RELAYER_KEYS_FROM_DEVNET: 'on',
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
