/**
 * Test fixture of the status tracker on Across: a devnet of the test file's own (ethereum -> base,
 * the saved build with Across's SpokePools and MulticallHandlers, on a free port range), an
 * AcrossBridgeProvider from its manifest, the devnet's Across relayer (funded; started by the tests,
 * `startRelayer`) and data worker (`worker.runBundle()` refunds expired deposits and repays the
 * relayer), a migrated test database, and the tracker's real Nest wiring on Across
 * (CROSS_CHAIN_BRIDGE=across, DEVNET_MANIFEST) started and stopped at will (a restart is a close
 * and a new start over the same database and queue). Private because the relayer and the data
 * worker act on every Across deposit they see.
 *
 * An order here is a direct SpokePool.deposit from the user's wallet (the provider's deposit call
 * of a USDC quote; the quote service sends the same call through Router.executeBridge, which the
 * tracker follows alike: across-status.int-spec.ts).
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Interface, JsonRpcProvider, MaxUint256, type TransactionReceipt, Wallet, toBeHex } from 'ethers';
import { Client } from 'pg';
import {
  type AcrossBridgeConfig,
  AcrossBridgeProvider,
  type AcrossManifestLike,
  type BridgeDepositCall,
  acrossConfigFromManifest,
} from '@tokensvc/bridge';
import type { Network } from '@tokensvc/domain';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { StatusTrackerModule } from '../wiring/app.module';
import { loadTrackerConfig } from '../config/tracker-config';
import { CrossChainStatusUseCase } from '../status/cross-chain-status.usecase';
import { CrossChainTracker, type TrackerEvent } from '../tracking/tracker';
import { minedReceipt } from './mined-receipt';

/**
 * The parts of @tokensvc/testing (and the devnet tooling it re-exports) the world uses, passed in
 * by the spec file: module boundaries let only test files import them.
 */
export type TrackerWorldKit = Pick<
  typeof import('@tokensvc/testing'),
  | 'AcrossDataWorker'
  | 'AcrossRelayer'
  | 'INFRA'
  | 'TEST_ACCOUNTS'
  | 'acrossNetworks'
  | 'acrossRelayerAccount'
  | 'createTestDatabaseUrl'
  | 'freePortRange'
  | 'fundAcrossRelayer'
  | 'manifestToken'
  | 'networkManifest'
  | 'startDevnet'
>;
type DevnetHandle = Awaited<ReturnType<TrackerWorldKit['startDevnet']>>;
type AcrossRelayer = InstanceType<TrackerWorldKit['AcrossRelayer']>;
type AcrossDataWorker = InstanceType<TrackerWorldKit['AcrossDataWorker']>;

const TRANSITION_RECORDER = Symbol('TRANSITION_RECORDER');
const ERC20 = new Interface(['function approve(address,uint256) returns (bool)']);

export interface TrackerApp {
  app: INestApplicationContext;
  status: CrossChainStatusUseCase;
  close(): Promise<void>;
}

/** One of the world's two chains. */
export interface TrackerChain {
  network: 'ethereum' | 'base';
  /** evm_snapshot; `revert` takes the chain back to it (a reorg, as far as followers can tell) */
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  chainId: number;
  rpcUrl: string;
  provider: JsonRpcProvider;
  /** the chain's USDC (the token the world's orders bridge) and Across's SpokePool */
  usdc: string;
  spokePool: string;
}

export interface RelayerOptions {
  mode?: 'normal' | 'offline';
  /** first block the relayer reads deposits from, per network (default: the head when it starts) */
  fromBlocks?: Partial<Record<Network, number>>;
  log?: (line: string, fields?: Record<string, unknown>) => void;
}

export interface TrackerWorld {
  devnet: DevnetHandle;
  origin: TrackerChain;
  destination: TrackerChain;
  across: AcrossBridgeConfig;
  provider: AcrossBridgeProvider;
  /** the running relayer (the last `startRelayer`'s); undefined before the first */
  readonly relayer: AcrossRelayer;
  /** the data worker, reading deposits from the world's start */
  worker: AcrossDataWorker;
  /** the orders' sender (and refund address) on the origin, with USDC */
  user: Wallet;
  /** another wallet with USDC on the origin that never approved the SpokePool unless a test makes it */
  stranger: Wallet;
  databaseUrl: string;
  db: Client;
  /** every transition written by any tracker app this world started */
  events: TrackerEvent[];
  /** the tracker's settings in this world (database, Redis, the devnet's RPCs and manifest, Across, the world's queue prefix), `env` on top */
  trackerEnv(env?: Record<string, string>): Record<string, string>;
  startTracker(env?: Record<string, string>): Promise<TrackerApp>;
  /**
   * (Re)starts the devnet's Across relayer (a running one is stopped first). The devnet relayer
   * does not follow reorgs (it keeps the deposits it saw): after one, start another over the new chain.
   */
  startRelayer(opts?: RelayerOptions): Promise<AcrossRelayer>;
  /** the origin deposit call of a USDC order, as the quote service's provider builds it */
  depositCall(amount: bigint, recipient?: string): Promise<BridgeDepositCall>;
  /** sends the deposit (after the approval unless `approve` is false); returns the receipt, reverted or not */
  sendDeposit(call: BridgeDepositCall, opts?: { approve?: boolean; from?: Wallet }): Promise<TransactionReceipt>;
  /**
   * the `orders` row of a cross-chain quote, as the quote service stores it; its `tx` is `call`
   * (the transaction a status request must match), or a placeholder no transaction matches
   */
  storeQuote(o?: {
    orderId?: string;
    keepUntil?: Date;
    createdAt?: Date;
    call?: Pick<BridgeDepositCall, 'to' | 'data' | 'value'>;
  }): Promise<string>;
  /** moves both chains' clocks `seconds` ahead (and mines a block on each) */
  passTime(seconds: number): Promise<void>;
  /** moves both chains' clocks past `fillDeadline` (a deposit's: no relayer may fill it now, the data worker refunds it) */
  passDeadline(fillDeadline: number): Promise<void>;
  stop(): Promise<void>;
}

async function startPrivateDevnet(kit: TrackerWorldKit): Promise<DevnetHandle> {
  // A free range of two ports (a collision with a file starting at the same moment is retried).
  for (let attempt = 1; ; attempt++) {
    try {
      return await kit.startDevnet({ networks: ['ethereum', 'base'], basePort: await kit.freePortRange(2), log: () => undefined });
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

/** `kit`: `import * as kit from '@tokensvc/testing'`; `database`: the test database's name prefix (created and migrated here, dropped by `stop`). */
export async function startTrackerWorld(kit: TrackerWorldKit, database: string): Promise<TrackerWorld> {
  const { TEST_ACCOUNTS, INFRA, manifestToken, networkManifest } = kit;
  const devnet = await startPrivateDevnet(kit);
  const rpcUrls = devnet.rpcUrls as Partial<Record<Network, string>>;
  const across = acrossConfigFromManifest(devnet.manifest as unknown as AcrossManifestLike);
  const chain = (network: 'ethereum' | 'base'): TrackerChain => {
    const m = networkManifest(devnet.manifest, network);
    const provider = new JsonRpcProvider(rpcUrls[network], m.chainId, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 20;
    return {
      network,
      chainId: m.chainId,
      rpcUrl: rpcUrls[network]!,
      provider,
      usdc: manifestToken(m, 'USDC').address,
      spokePool: m.contracts.acrossSpokePool!,
      snapshot: async () => (await provider.send('evm_snapshot', [])) as string,
      revert: async (id) => {
        if (!(await provider.send('evm_revert', [id]))) throw new Error(`evm_revert ${id} refused on ${network}`);
      },
    };
  };
  const origin = chain('ethereum');
  const destination = chain('base');
  const provider = new AcrossBridgeProvider({ config: across, rpcUrls, rpc: { retry: { attempts: 2, baseDelayMs: 50, maxDelayMs: 200 } } });
  const relayerKey = kit.acrossRelayerAccount().privateKey;
  await kit.fundAcrossRelayer({ manifest: devnet.manifest, rpcUrls, relayerKey });
  const networks = kit.acrossNetworks(devnet.manifest, rpcUrls);
  const worker = new kit.AcrossDataWorker({ networks });
  await worker.init();
  let relayer: AcrossRelayer | undefined;
  const user = new Wallet(TEST_ACCOUNTS[2]!.privateKey, origin.provider);
  const stranger = new Wallet(TEST_ACCOUNTS[3]!.privateKey, origin.provider);

  const databaseUrl = kit.createTestDatabaseUrl(database);
  await migrate(databaseUrl);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const queuePrefix = `trk${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const events: TrackerEvent[] = [];
  const apps: TrackerApp[] = [];
  const trackerEnv = (env: Record<string, string> = {}): Record<string, string> => ({
    DATABASE_URL: databaseUrl,
    REDIS_URL: INFRA.redis,
    NETWORKS: 'ethereum,base',
    RPC_URL_ETHEREUM: origin.rpcUrl,
    RPC_URL_BASE: destination.rpcUrl,
    // The tracker configured as an operator would on the devnet: Across's SpokePools from the manifest.
    DEVNET_MANIFEST: devnet.manifestPath,
    CROSS_CHAIN_BRIDGE: 'across',
    TRACKER_POLL_MS: '100',
    TRACKER_LOCK_MS: '2000',
    TRACKER_SWEEP_MS: '1000',
    TRACKER_QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: 'warn',
    ...env,
  });
  const passTime = async (seconds: number): Promise<void> => {
    for (const c of [origin, destination]) {
      await c.provider.send('evm_increaseTime', [toBeHex(seconds)]);
      await c.provider.send('evm_mine', []);
    }
  };

  return {
    devnet,
    origin,
    destination,
    across,
    provider,
    get relayer(): AcrossRelayer {
      if (!relayer) throw new Error('no relayer started: call startRelayer');
      return relayer;
    },
    worker,
    user,
    stranger,
    databaseUrl,
    db,
    events,
    trackerEnv,
    async startTracker(env = {}) {
      const config = loadTrackerConfig(trackerEnv(env), { across });
      // The listener is a provider of the module, so it is attached while Nest builds the context:
      // createApplicationContext runs the start-up hooks (the tracker's sweep may finish an order
      // there), and a listener added after it returned missed those transitions.
      const root = StatusTrackerModule.forRoot(config);
      const listener = {
        provide: TRANSITION_RECORDER,
        inject: [CrossChainTracker],
        useFactory: (t: CrossChainTracker): true => {
          t.onTransition((e) => events.push(e));
          return true;
        },
      };
      const app = await NestFactory.createApplicationContext(
        { ...root, providers: [...(root.providers ?? []), listener] },
        { logger: ['error'] },
      );
      await app.init();
      const handle: TrackerApp = {
        app,
        status: app.get(CrossChainStatusUseCase),
        close: async () => {
          const i = apps.indexOf(handle);
          if (i >= 0) apps.splice(i, 1);
          await app.close();
        },
      };
      apps.push(handle);
      return handle;
    },
    async startRelayer(opts = {}) {
      await relayer?.stop();
      relayer = new kit.AcrossRelayer({
        networks,
        relayerKey,
        pollMs: 100,
        mode: opts.mode ?? 'normal',
        fromBlocks: opts.fromBlocks,
        log: opts.log,
      });
      await relayer.start();
      return relayer;
    },
    async depositCall(amount, recipient = Wallet.createRandom().address) {
      const quote = await provider.quote({
        originNetwork: 'ethereum',
        destinationNetwork: 'base',
        inputToken: origin.usdc,
        inputAmount: amount,
        outputToken: destination.usdc,
      });
      return provider.depositCall({ quote, depositor: user.address, recipient, refundTo: user.address });
    },
    async sendDeposit(call, opts = {}) {
      const wallet = opts.from ?? user;
      if (opts.approve !== false && call.approvalToken)
        await minedReceipt(
          origin.provider,
          (await wallet.sendTransaction({ to: call.approvalToken, data: ERC20.encodeFunctionData('approve', [call.to, MaxUint256]) })).hash,
        );
      // A fixed gas limit: a deposit that reverts is still mined (no estimate to refuse it).
      const sent = await wallet.sendTransaction({ to: call.to, data: call.data, value: call.value, gasLimit: 500_000n });
      return minedReceipt(origin.provider, sent.hash);
    },
    async storeQuote(o = {}) {
      const orderId = o.orderId ?? randomUUID();
      const createdAt = o.createdAt ?? new Date();
      const keepUntil = o.keepUntil ?? new Date(createdAt.getTime() + 7 * 24 * 3600_000);
      const sender = user.address.toLowerCase();
      const context = {
        orderId,
        inputToken: `ethereum:${origin.usdc.toLowerCase()}`,
        inputAmount: '1000000',
        outputToken: `base:${destination.usdc.toLowerCase()}`,
        outputAmount: '999500',
        sender,
      };
      const tx = {
        to: (o.call?.to ?? origin.spokePool).toLowerCase(),
        data: o.call?.data ?? '0x',
        from: sender,
        value: (o.call?.value ?? 0n).toString(),
      };
      await db.query(
        `INSERT INTO orders (order_id, network, chain_id, sender, created_at, expires_at, keep_until, context, tx, signed_order, calls)
         VALUES ($1, 'ethereum', 1, $2, $3, $4, $5, $6, $7, NULL, '[]')`,
        [orderId, sender, createdAt, new Date(createdAt.getTime() + 20 * 60_000), keepUntil, context, tx],
      );
      return orderId;
    },
    passTime,
    async passDeadline(fillDeadline) {
      // Each chain by its own clock: a relayer checks the destination's, the data worker too, the refund leaf lands on the origin.
      for (const c of [origin, destination]) {
        const now = (await c.provider.getBlock('latest'))!.timestamp;
        await c.provider.send('evm_increaseTime', [toBeHex(Math.max(1, fillDeadline - now + 1))]);
        await c.provider.send('evm_mine', []);
      }
    },
    async stop() {
      await relayer?.stop().catch(() => undefined); // stopped already by a test, maybe
      worker.close();
      for (const a of [...apps]) await a.close();
      await db.end();
      await dropDatabase(databaseUrl);
      for (const c of [origin, destination]) c.provider.destroy();
      await devnet.stop();
    },
  };
}
