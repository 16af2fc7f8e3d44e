import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { computeAddress } from 'ethers';
import { DataSource } from 'typeorm';
import { AcrossApiFees, AcrossBridgeProvider, type AcrossFeeModel, type BridgeProvider, ConfiguredAcrossFees } from '@tokensvc/bridge';
import type { Network } from '@tokensvc/domain';
import { PersistenceModule } from '@tokensvc/persistence';
import { pingController } from '@tokensvc/transport';
import { ChainClients } from './chain/chain-clients';
import { RouterDirectory } from './chain/router-directory';
import { StateOverrides } from './chain/state-overrides';
import type { QuoteConfig } from './config/quote-config';
import { GraphRepository } from './graph/graph.repository';
import { LiquidityGraphs } from './graph/liquidity-graphs';
import { PoolEventStream } from './graph/pool-event-stream';
import { ApprovalUseCase } from './orders/approval.usecase';
import { BuildOrderUseCase } from './orders/build-order.usecase';
import { MultiOrderUseCase } from './orders/multi-order.usecase';
import { CrossChainOrders } from './orders/cross-chain-orders';
import { EstimateUseCase } from './orders/estimate.usecase';
import { OrderValidator } from './orders/order-validation';
import { QuoteController } from './orders/quote.controller';
import { QuoteEngine } from './orders/quote-engine';
import { OrderStore } from './relay/order-store';
import { relayProviders } from './relay/relay.providers';

/** Across's fee model: its API when ACROSS_API_URL is set (the configured figures when it fails), else the configured figures. */
function acrossFees(s: QuoteConfig['acrossFees']): AcrossFeeModel {
  const configured = new ConfiguredAcrossFees({
    relayerFeeBps: s.relayerFeeBps,
    lpFeeBps: s.lpFeeBps,
    minimumInput: s.minimumInput,
    fillDeadlineSeconds: s.fillDeadlineSeconds,
  });
  return s.apiUrl
    ? new AcrossApiFees({ baseUrl: s.apiUrl, apiKey: s.apiKey, timeoutMs: s.apiTimeoutMs, fallback: configured })
    : configured;
}

/** The bridge of cross-chain orders (CROSS_CHAIN_BRIDGE), or undefined when none is configured. */
export function bridgeProvider(config: QuoteConfig): BridgeProvider | undefined {
  const rpcUrls: Partial<Record<Network, string>> = Object.fromEntries(config.deployments.map((d) => [d.network, d.rpcUrl]));
  if (config.crossChainDisabled) new Logger('CrossChainOrders').warn(config.crossChainDisabled);
  return config.across ? new AcrossBridgeProvider({ config: config.across, rpcUrls, fees: acrossFees(config.acrossFees) }) : undefined;
}

/** The order builder: liquidity graph (Postgres snapshot + JetStream pool events), routing, tx building, simulation, order store and signed-order relayer. */
@Module({})
export class QuoteModule {
  static forRoot(config: QuoteConfig): DynamicModule {
    const eventsLog = new Logger('PoolEventStream');
    return {
      module: QuoteModule,
      imports: [PersistenceModule.forRoot(config.databaseUrl, 'quote', 4)],
      controllers: [QuoteController, pingController('quote')],
      providers: [
        { provide: GraphRepository, inject: [DataSource], useFactory: (ds: DataSource) => new GraphRepository(ds) },
        {
          provide: PoolEventStream,
          useFactory: () =>
            new PoolEventStream(
              { natsUrl: config.natsUrl, stream: config.eventsStream, subjectPrefix: config.eventsSubjectPrefix },
              (msg, extra) => eventsLog.warn(`${msg} ${JSON.stringify(extra ?? {})}`),
            ),
        },
        {
          provide: LiquidityGraphs,
          inject: [GraphRepository, PoolEventStream],
          useFactory: (repo: GraphRepository, events: PoolEventStream) =>
            new LiquidityGraphs(
              config.deployments.map((d) => ({ network: d.network, wrappedNative: d.wrappedNative })),
              repo,
              events,
              config.catalogRefreshMs,
            ),
        },
        { provide: ChainClients, useFactory: () => new ChainClients(config.deployments, config.gasPriceTtlMs) },
        { provide: RouterDirectory, inject: [ChainClients], useFactory: (chains: ChainClients) => new RouterDirectory(chains) },
        { provide: StateOverrides, useFactory: () => new StateOverrides() },
        {
          provide: QuoteEngine,
          inject: [LiquidityGraphs, ChainClients],
          useFactory: (graphs: LiquidityGraphs, chains: ChainClients) =>
            new QuoteEngine(graphs, chains, new Map(config.deployments.map((d) => [d.network, d]))),
        },
        { provide: OrderValidator, inject: [ChainClients], useFactory: (chains: ChainClients) => new OrderValidator(chains) },
        {
          provide: EstimateUseCase,
          inject: [QuoteEngine, ChainClients, RouterDirectory, StateOverrides],
          useFactory: (engine: QuoteEngine, chains: ChainClients, routers: RouterDirectory, overrides: StateOverrides) =>
            new EstimateUseCase(engine, chains, routers, overrides, config.quoteValiditySeconds),
        },
        {
          provide: ApprovalUseCase,
          inject: [QuoteEngine, LiquidityGraphs, ChainClients],
          useFactory: (engine: QuoteEngine, graphs: LiquidityGraphs, chains: ChainClients) => new ApprovalUseCase(engine, graphs, chains),
        },
        {
          provide: BuildOrderUseCase,
          inject: [QuoteEngine, RouterDirectory, OrderValidator, ChainClients, OrderStore],
          useFactory: (engine: QuoteEngine, routers: RouterDirectory, validator: OrderValidator, chains: ChainClients, store: OrderStore) =>
            // Signed orders name the network's relayer wallet as their only submitter.
            new BuildOrderUseCase(
              engine,
              routers,
              validator,
              config.quoteValiditySeconds,
              chains,
              store,
              new Map([...config.relay.wallets].map(([network, key]) => [network, computeAddress(key).toLowerCase()])),
            ),
        },
        {
          provide: MultiOrderUseCase,
          inject: [QuoteEngine, ChainClients, RouterDirectory],
          useFactory: (engine: QuoteEngine, chains: ChainClients, routers: RouterDirectory) =>
            new MultiOrderUseCase(engine, chains, routers, chains, config.quoteValiditySeconds),
        },
        {
          provide: CrossChainOrders,
          inject: [QuoteEngine, LiquidityGraphs, RouterDirectory, ChainClients, OrderStore],
          useFactory: (engine: QuoteEngine, graphs: LiquidityGraphs, routers: RouterDirectory, chains: ChainClients, store: OrderStore) => {
            const bridge = bridgeProvider(config);
            return new CrossChainOrders(
              engine,
              graphs,
              routers,
              new Map(config.deployments.map((d) => [d.network, d])),
              bridge,
              config.quoteValiditySeconds,
              chains,
              store,
            );
          },
        },
        ...relayProviders(config),
      ],
    };
  }
}
