/**
 * Cold build of one network of the mainnet-shaped profile: the real chain id, every contract of the
 * shipped registry at its real address (deploy.ts, aave.ts, across.ts), the devnet's seeders for liquidity
 * and 30 days of history, then the project's Router through the deterministic deployment proxy.
 */
import { JsonRpcProvider, Wallet } from 'ethers';
import { DETERMINISTIC_DEPLOYMENT_PROXY, deployRouterDeterministic } from '@tokensvc/contracts';
import { type BuildOptions, builtWorldRecord, mineAtNow, onBuildChain } from '../build';
import { saveState } from '../chain/dump';
import { ANVIL_ACCOUNTS } from '../accounts';
import { mineNext, tokenBySymbol } from '../deploy/context';
import type { NetworkDeployment } from '../deploy/network';
import type { NetworkManifest } from '../manifest';
import { seedLiquidity } from '../seed/liquidity';
import { PriceBook } from '../seed/prices';
import { simulateHistory } from '../seed/simulator';
import { World } from '../seed/world';
import { placeAave } from './aave';
import { placeAcross } from './across';
import { RealBook, type RegistryNetwork, profileAliases, profileTokenSpecs } from './book';
import { placeTokens, placeV2, placeV3, placeV4, placeVaults } from './deploy';
import type { Placement } from './place';

export interface ProfileNetworkManifest extends NetworkManifest {
  /** how each real address came to hold code (see docs/devnet-mainnet-shaped.md) */
  placements: Placement[];
  /** listed tokens and vault assets placed for the registry but not traded by the seeders */
  extraTokens: NetworkManifest['tokens'];
}

export interface ProfileBuildOptions extends BuildOptions {
  /** the shipped registry's entry for the network */
  registry: RegistryNetwork;
}

export async function buildMainnetShaped(o: ProfileBuildOptions): Promise<ProfileNetworkManifest> {
  const book = new RealBook(o.network, o.registry);
  return onBuildChain(
    o,
    `${o.network} (mainnet-shaped)`,
    profileAliases(o.network),
    async ({ chainId, timeline, anvil, rpc, writer, ctx }) => {
      const prices = new PriceBook(profileTokenSpecs(o.network), timeline.steps, timeline.blocksPerDay, o.seed);
      const priceOf = prices.at(0);
      const placements: Placement[] = [];
      ctx.log('placing tokens and Multicall3 at their real addresses');
      const { traded, extra } = await placeTokens(ctx, book, priceOf, placements);
      const first = await rpc.call<{ number: string; timestamp: string }>('eth_getBlockByNumber', ['0x1', false]);
      ctx.log('placing Uniswap V2, SushiSwap, Uniswap V3 and the vaults');
      const v2 = await placeV2(ctx, book, traded, placements);
      const v3 = await placeV3(ctx, book, traded, priceOf, placements);
      const vaults = await placeVaults(ctx, book, [...traded, ...extra], placements);
      await mineNext(ctx);
      ctx.log('placing Aave V3');
      const aave = await placeAave(ctx, book, traded, priceOf, placements);
      const weth = tokenBySymbol(traded, 'WETH').address;
      ctx.log('placing Across (SpokePool and MulticallHandler)');
      const across = await placeAcross(ctx, book, weth, placements);
      ctx.log('placing the Uniswap V4 PoolManager and the UniversalRouter');
      await placeV4(ctx, book, weth, placements);
      const deployment: NetworkDeployment = {
        weth,
        multicall3: book.multicall3,
        tokens: traded,
        platforms: [...v2, v3, vaults, aave],
        contracts: { router: '', executor: '' },
        deployBlock: Number(first.number),
        deployTimestamp: Number(first.timestamp),
      };
      const world = new World(ctx, deployment, prices);
      ctx.log('seeding liquidity and 30 days of history');
      await seedLiquidity(world);
      await simulateHistory(world, timeline);
      const last = await mineAtNow(writer);
      // The Router as on a real network: through the CREATE2 deployment proxy, at the address its init code gives.
      await rpc.call('evm_setAutomine', [true]);
      const signer = new Wallet(ANVIL_ACCOUNTS[4]!.privateKey, new JsonRpcProvider(anvil.rpcUrl, chainId, { staticNetwork: true }));
      const router = await deployRouterDeterministic(signer, o.network);
      signer.provider?.destroy();
      placements.push({
        address: router.plan.router,
        what: 'tokensvc Router (deployRouterDeterministic)',
        method: 'create2',
        from: DETERMINISTIC_DEPLOYMENT_PROXY,
      });
      await saveState(rpc, o.stateFile);
      const head = Number(await rpc.call<string>('eth_blockNumber'));
      ctx.log(`saved ${writer.transactionCount} transactions in ${head} blocks`);
      return {
        network: o.network,
        chainId,
        deployer: ctx.deployer,
        weth,
        multicall3: book.multicall3,
        tokens: traded,
        extraTokens: extra,
        platforms: deployment.platforms,
        contracts: { router: router.plan.router, executor: router.plan.executor, ...across },
        ...builtWorldRecord(world, timeline, deployment, { block: head, timestamp: last.timestamp, transactions: writer.transactionCount }),
        placements,
      };
    },
  );
}
