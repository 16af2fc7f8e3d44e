/**
 * Test fixture of the status tracker: the two-anvil bridge world of @tokensvc/contracts (chain 1
 * "ethereum" -> chain 8453 "base", the filler as attester), a DevnetBridgeProvider and a Filler
 * over it, a migrated test database, and the tracker's real Nest wiring started and stopped at
 * will (a restart is a close and a new start over the same database and queue).
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { type Contract, MaxUint256, type TransactionReceipt, Wallet } from 'ethers';
import { Client } from 'pg';
import { type DevnetBridgeConfig, DevnetBridgeProvider, Filler, NATIVE_TOKEN, type BridgeDepositCall } from '@tokensvc/bridge';
import { type BridgeChain, type BridgeWorld, encodeSetAttester, sendOk, startBridgeWorld } from '@tokensvc/contracts';
import type { Network } from '@tokensvc/domain';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { StatusTrackerModule } from '../wiring/app.module';
import { loadTrackerConfig } from '../config/tracker-config';
import { CrossChainStatusUseCase } from '../status/cross-chain-status.usecase';
import { CrossChainTracker, type TrackerEvent } from '../tracking/tracker';

const TRANSITION_RECORDER = Symbol('TRANSITION_RECORDER');

const addr = (c: Contract): string => c.target as string;

export interface TrackerApp {
  app: INestApplicationContext;
  status: CrossChainStatusUseCase;
  close(): Promise<void>;
}

export interface TrackerWorld {
  world: BridgeWorld;
  origin: BridgeChain;
  destination: BridgeChain;
  bridge: DevnetBridgeConfig;
  provider: DevnetBridgeProvider;
  filler: Filler;
  databaseUrl: string;
  db: Client;
  /** every transition written by any tracker app this world started */
  events: TrackerEvent[];
  /** the tracker's settings in this world (database, anvils, the world's queue prefix), `env` on top */
  trackerEnv(env?: Record<string, string>): Record<string, string>;
  startTracker(env?: Record<string, string>): Promise<TrackerApp>;
  /** the origin deposit call of a USDC order, as the quote service would build it */
  depositCall(amount: bigint, recipient?: string): Promise<BridgeDepositCall>;
  /** sends the deposit (after the approval unless `approve` is false); returns the receipt, reverted or not */
  sendDeposit(call: BridgeDepositCall, opts?: { approve?: boolean; from?: Wallet }): Promise<TransactionReceipt>;
  /**
   * the `orders` row of a cross-chain quote, as the quote service stores it; its `tx` is `call`
   * (the transaction a status request must match), or a placeholder no transaction matches
   */
  storeQuote(o?: { orderId?: string; keepUntil?: Date; createdAt?: Date; call?: Pick<BridgeDepositCall, 'to' | 'data' | 'value'> }): Promise<string>;
  passTime(seconds: number): Promise<void>;
  stop(): Promise<void>;
}

/** `databaseUrl`: a fresh test database (createTestDatabaseUrl); it is migrated here and dropped by `stop`. */
export async function startTrackerWorld(databaseUrl: string): Promise<TrackerWorld> {
  const world = await startBridgeWorld(1, 8453);
  const { origin, destination } = world;
  for (const chain of [origin, destination]) await sendOk(world.deployer.on(chain), { to: addr(chain.escrow), data: encodeSetAttester(world.filler.address) });
  const side = (network: Network, chain: BridgeChain) => ({
    network,
    chainId: Number(chain.chainId),
    escrow: addr(chain.escrow),
    settler: addr(chain.settler),
    tokens: [
      { symbol: 'USDC', address: addr(chain.token), decimals: 6, priceUsd: 1 },
      { symbol: 'ETH', address: NATIVE_TOKEN, decimals: 18, priceUsd: 3000 },
    ],
  });
  const bridge: DevnetBridgeConfig = { networks: [side('ethereum', origin), side('base', destination)] };
  const rpcUrls = { ethereum: origin.anvil.rpcUrl, base: destination.anvil.rpcUrl };
  const provider = new DevnetBridgeProvider({ config: bridge, rpcUrls, rpc: { retry: { attempts: 2, baseDelayMs: 50, maxDelayMs: 200 } } });
  const filler = new Filler({ provider, privateKey: world.filler.on(origin).privateKey, pollMs: 100, retryDelayMs: 200, log: () => undefined });
  await migrate(databaseUrl);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const queuePrefix = `trk${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const events: TrackerEvent[] = [];
  const apps: TrackerApp[] = [];
  const trackerEnv = (env: Record<string, string> = {}): Record<string, string> => ({
    DATABASE_URL: databaseUrl,
    NETWORKS: 'ethereum,base',
    RPC_URL_ETHEREUM: rpcUrls.ethereum,
    RPC_URL_BASE: rpcUrls.base,
    TRACKER_POLL_MS: '100',
    TRACKER_LOCK_MS: '2000',
    TRACKER_SWEEP_MS: '1000',
    TRACKER_QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: 'warn',
    // this world's bridge is the devnet bridge of its private anvils (Across is the apps' default)
    CROSS_CHAIN_BRIDGE: 'devnet',
    ...env,
  });

  return {
    world,
    origin,
    destination,
    bridge,
    provider,
    filler,
    databaseUrl,
    db,
    events,
    trackerEnv,
    async startTracker(env = {}) {
      const config = loadTrackerConfig(
        trackerEnv(env),
        { bridge },
      );
      // The listener is a provider of the module, so it is attached while Nest builds the context:
      // createApplicationContext runs the start-up hooks (the tracker's sweep may finish an order
      // there), and a listener added after it returned missed those transitions.
      const root = StatusTrackerModule.forRoot(config);
      const listener = { provide: TRANSITION_RECORDER, inject: [CrossChainTracker], useFactory: (t: CrossChainTracker): true => {
        t.onTransition((e) => events.push(e));
        return true;
      } };
      const app = await NestFactory.createApplicationContext({ ...root, providers: [...(root.providers ?? []), listener] }, { logger: ['error'] });
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
    async depositCall(amount, recipient = Wallet.createRandom().address) {
      const route = provider.route('ethereum', 'base')!.tokens.find((t) => t.symbol === 'USDC')!;
      const quote = await provider.quote({ originNetwork: 'ethereum', destinationNetwork: 'base', inputToken: route.originToken, inputAmount: amount, outputToken: route.destinationToken });
      return provider.depositCall({ quote, depositor: world.user.address, recipient, refundTo: world.user.address });
    },
    async sendDeposit(call, opts = {}) {
      const wallet = opts.from ?? world.user.on(origin);
      if (opts.approve !== false && call.approvalToken) await sendOk(wallet, { to: call.approvalToken, data: origin.token.interface.encodeFunctionData('approve', [call.to, MaxUint256]) });
      // A fixed gas limit: a deposit that reverts is still mined (no estimate to refuse it).
      const sent = await wallet.sendTransaction({ to: call.to, data: call.data, value: call.value, gasLimit: 500_000n });
      const receipt = await origin.provider.waitForTransaction(sent.hash);
      if (!receipt) throw new Error(`no receipt for ${sent.hash}`);
      return receipt;
    },
    async storeQuote(o = {}) {
      const orderId = o.orderId ?? randomUUID();
      const createdAt = o.createdAt ?? new Date();
      const keepUntil = o.keepUntil ?? new Date(createdAt.getTime() + 7 * 24 * 3600_000);
      const context = { orderId, inputToken: `ethereum:${addr(origin.token).toLowerCase()}`, inputAmount: '1000000', outputToken: `base:${addr(destination.token).toLowerCase()}`, outputAmount: '999500', sender: world.user.address.toLowerCase() };
      const tx = { to: (o.call?.to ?? addr(origin.escrow)).toLowerCase(), data: o.call?.data ?? '0x', from: world.user.address.toLowerCase(), value: (o.call?.value ?? 0n).toString() };
      await db.query(
        `INSERT INTO orders (order_id, network, chain_id, sender, created_at, expires_at, keep_until, context, tx, signed_order, calls)
         VALUES ($1, 'ethereum', 1, $2, $3, $4, $5, $6, $7, NULL, '[]')`,
        [orderId, world.user.address.toLowerCase(), createdAt, new Date(createdAt.getTime() + 20 * 60_000), keepUntil, context, tx],
      );
      return orderId;
    },
    async passTime(seconds) {
      for (const chain of [origin, destination]) await chain.increaseTime(BigInt(seconds));
    },
    async stop() {
      await filler.stop();
      for (const a of [...apps]) await a.close();
      await db.end();
      await dropDatabase(databaseUrl);
      await world.stop();
    },
  };
}
