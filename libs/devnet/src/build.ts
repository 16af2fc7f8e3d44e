/**
 * Cold build of one network: a throw-away anvil (no automine, auto-impersonation, genesis ~31
 * days ago) gets the contracts, liquidity and history, then its state is dumped to a file that
 * every later start loads in a fraction of a second.
 */
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { deployerFor } from './accounts';
import { type AnvilProcess, startAnvil } from './anvil';
import { saveState } from './chain/dump';
import { RpcClient } from './chain/rpc';
import { ChainWriter, type MinedBlock } from './chain/writer';
import { BlockClock, type BuildContext } from './deploy/context';
import { type NetworkDeployment, deployNetwork } from './deploy/network';
import type { NetworkManifest } from './manifest';
import { seedLiquidity } from './seed/liquidity';
import { PriceBook } from './seed/prices';
import { type Timeline, planTimeline, simulateHistory } from './seed/simulator';
import { World, allTokenSpecs } from './seed/world';

export interface BuildOptions {
  network: Network;
  host: string;
  port: number;
  seed: string;
  stateFile: string;
  /**
   * unix seconds the build treats as "now" (its history ends there); default the wall clock. A
   * fixed value makes the build a function of the code and the seed alone (the golden check).
   */
  buildTime?: number;
  log: (line: string) => void;
}

export { deployerFor } from './accounts';

/** A build's throw-away chain: its anvil, clients and the context the deployers and seeders share. */
export interface BuildChain {
  chainId: number;
  timeline: Timeline;
  anvil: AnvilProcess;
  rpc: RpcClient;
  writer: ChainWriter;
  ctx: BuildContext;
}

/**
 * Runs `build` on a throw-away anvil for `o.network` (no automine, auto-impersonation, genesis at
 * the timeline's start), stopped whatever happens. Log lines are prefixed with `label`.
 */
export async function onBuildChain<T>(
  o: BuildOptions,
  label: string,
  aliases: BuildContext['aliases'] | undefined,
  build: (chain: BuildChain) => Promise<T>,
): Promise<T> {
  const chainId = NETWORK_INFO[o.network].chainId;
  const timeline = planTimeline(o.buildTime ?? Date.now() / 1000);
  const anvil = await startAnvil({
    host: o.host,
    port: o.port,
    chainId,
    timestamp: timeline.genesis,
    noMining: true,
    extraArgs: ['--auto-impersonate'],
  });
  try {
    const rpc = new RpcClient(anvil.rpcUrl);
    const writer = new ChainWriter(rpc);
    const ctx: BuildContext = {
      network: o.network,
      chainId,
      seed: o.seed,
      rpc,
      writer,
      deployer: deployerFor(o.network),
      clock: new BlockClock(timeline.genesis),
      log: (line) => o.log(`${label}: ${line}`),
      ...(aliases ? { aliases } : {}),
    };
    return await build({ chainId, timeline, anvil, rpc, writer, ctx });
  } finally {
    await anvil.stop();
  }
}

/** One empty block at the real time: later blocks (automine) continue from now, not the past. */
export function mineAtNow(writer: ChainWriter, now: number = Date.now() / 1000): Promise<MinedBlock> {
  return writer.mine(Math.max(Math.floor(now), writer.lastTimestamp + 1));
}

/** The manifest's accounts (the world's actors) and history of a built network. */
export function builtWorldRecord(
  world: World,
  timeline: Timeline,
  deployment: Pick<NetworkDeployment, 'deployBlock' | 'deployTimestamp'>,
  last: { block: number; timestamp: number; transactions: number },
): Pick<NetworkManifest, 'accounts' | 'history'> {
  const { actors } = world;
  return {
    accounts: {
      relayer: actors.relayer,
      traders: actors.traders.map((a) => a.address),
      liquidityProviders: actors.liquidityProviders.map((a) => a.address),
      arbitrageurs: actors.arbitrageurs.map((a) => a.address),
    },
    history: {
      genesisTimestamp: timeline.genesis,
      deployBlock: deployment.deployBlock,
      deployTimestamp: deployment.deployTimestamp,
      activityStartTimestamp: timeline.activityStart,
      lastBlock: last.block,
      lastTimestamp: last.timestamp,
      transactions: last.transactions,
    },
  };
}

export async function buildNetwork(o: BuildOptions): Promise<NetworkManifest> {
  return onBuildChain(o, o.network, undefined, async ({ chainId, timeline, rpc, writer, ctx }) => {
    const prices = new PriceBook(allTokenSpecs(o.network), timeline.steps, timeline.blocksPerDay, o.seed);
    const deployment = await deployNetwork(ctx, prices.at(0));
    const world = new World(ctx, deployment, prices);
    await seedLiquidity(world);
    await simulateHistory(world, timeline);
    const last = await mineAtNow(writer, o.buildTime);
    await saveState(rpc, o.stateFile);
    ctx.log(`saved ${writer.transactionCount} transactions in ${last.number} blocks`);
    return {
      network: o.network,
      chainId,
      deployer: ctx.deployer,
      weth: deployment.weth,
      multicall3: deployment.multicall3,
      tokens: deployment.tokens.map((t) => ({ ...t })),
      platforms: deployment.platforms,
      contracts: deployment.contracts,
      ...builtWorldRecord(world, timeline, deployment, {
        block: last.number,
        timestamp: last.timestamp,
        transactions: writer.transactionCount,
      }),
    };
  });
}
