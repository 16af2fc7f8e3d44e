/**
 * Cold build of one network: a throw-away anvil (no automine, auto-impersonation, genesis ~31
 * days ago) gets the contracts, liquidity and history, then its state is dumped to a file that
 * every later start loads in a fraction of a second.
 */
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { deployerFor } from './accounts';
import { startAnvil } from './anvil';
import { saveState } from './chain/dump';
import { RpcClient } from './chain/rpc';
import { ChainWriter } from './chain/writer';
import { BlockClock, type BuildContext } from './deploy/context';
import { deployNetwork } from './deploy/network';
import type { NetworkManifest } from './manifest';
import { seedLiquidity } from './seed/liquidity';
import { PriceBook } from './seed/prices';
import { planTimeline, simulateHistory } from './seed/simulator';
import { World, allTokenSpecs } from './seed/world';

export interface BuildOptions {
  network: Network;
  host: string;
  port: number;
  seed: string;
  stateFile: string;
  log: (line: string) => void;
}

export { deployerFor } from './accounts';

export async function buildNetwork(o: BuildOptions): Promise<NetworkManifest> {
  const chainId = NETWORK_INFO[o.network].chainId;
  const timeline = planTimeline(Date.now() / 1000);
  const anvil = await startAnvil({ host: o.host, port: o.port, chainId, timestamp: timeline.genesis, noMining: true, extraArgs: ['--auto-impersonate'] });
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
      log: (line) => o.log(`${o.network}: ${line}`),
    };
    const prices = new PriceBook(allTokenSpecs(o.network), timeline.steps, timeline.blocksPerDay, o.seed);
    const deployment = await deployNetwork(ctx, prices.at(0));
    const world = new World(ctx, deployment, prices);
    await seedLiquidity(world);
    await simulateHistory(world, timeline);
    // One empty block at the real time: later blocks (automine) continue from now, not the past.
    const last = await writer.mine(Math.max(Math.floor(Date.now() / 1000), writer.lastTimestamp + 1));
    await saveState(rpc, o.stateFile);
    ctx.log(`saved ${writer.transactionCount} transactions in ${last.number} blocks`);
    const { actors } = world;
    return {
      network: o.network,
      chainId,
      deployer: ctx.deployer,
      weth: deployment.weth,
      multicall3: deployment.multicall3,
      tokens: deployment.tokens.map((t) => ({ ...t })),
      platforms: deployment.platforms,
      contracts: deployment.contracts,
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
        lastBlock: last.number,
        lastTimestamp: last.timestamp,
        transactions: writer.transactionCount,
      },
    };
  } finally {
    await anvil.stop();
  }
}
