/**
 * DEVNET ONLY: how the local devnet (libs/devnet, through the port in ../devnet-port.ts) deploys
 * and seeds Aave V3. Nothing in production runs it.
 * Aave V3 (core 1.19) from the published artifacts, wired the way Aave's own deploy scripts do:
 * addresses provider → ACL → linked Pool/Configurator behind the provider's proxies → oracle with
 * one Chainlink-style feed (the project's `MockPriceFeed`) per asset → token implementations →
 * reserves via initReserves.
 */
import type { Network } from '@tokensvc/domain';
import { MaxUint256 } from 'ethers';
import { type Artifact, linkBytecode, loadAaveArtifact, loadArtifact, requiredLibraries } from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { usdToUnits } from '../devnet-math';
import { addPosition } from '../devnet-trading';
import {
  type DevnetChain,
  type DevnetFacet,
  type DevnetMarket,
  type DevnetToken,
  type DevnetWorld,
  devnetPlatformAddress,
  devnetToken,
  lazyInterface,
} from '../devnet-port';

export interface ReserveSpec {
  asset: string;
  /** basis points */
  ltv: number;
  liquidationThreshold: number;
  /** 10000 + bonus, e.g. 10500 = 5 % */
  liquidationBonus: number;
  reserveFactor: number;
  stable: boolean;
  /** liquidity the LP supplies at seeding, USD */
  seedUsd: number;
}

export interface AavePlan {
  platform: { slug: string; name: string };
  reserves: readonly ReserveSpec[];
}

export const AAVE_DEVNET_ABI = {
  pool: lazyInterface(() => loadAaveArtifact('Pool').abi),
  configurator: lazyInterface(() => loadAaveArtifact('PoolConfigurator').abi),
  provider: lazyInterface(() => loadAaveArtifact('PoolAddressesProvider').abi),
  acl: lazyInterface(() => loadAaveArtifact('ACLManager').abi),
  dataProvider: lazyInterface(() => loadAaveArtifact('AaveProtocolDataProvider').abi),
  priceFeed: lazyInterface(() => loadArtifact('MockPriceFeed').abi),
};

/** Aave names aTokens per market, e.g. aEthUSDC on Ethereum, aArbUSDC on Arbitrum. */
export function aaveMarketLabel(network: Network): { name: string; prefix: string } {
  const known: Partial<Record<Network, { name: string; prefix: string }>> = {
    ethereum: { name: 'Ethereum', prefix: 'Eth' },
    arbitrum: { name: 'Arbitrum', prefix: 'Arb' },
    base: { name: 'Base', prefix: 'Bas' },
    optimism: { name: 'Optimism', prefix: 'Opt' },
    polygon: { name: 'Polygon', prefix: 'Pol' },
    avalanche: { name: 'Avalanche', prefix: 'Ava' },
  };
  const label = known[network];
  if (label) return label;
  const name = network.charAt(0).toUpperCase() + network.slice(1);
  return { name, prefix: name.slice(0, 3) };
}

const RAY = 10n ** 27n;
const ray = (percent: number): bigint => (RAY * BigInt(Math.round(percent * 100))) / 10_000n;

/** Rate curves close to Aave's published stablecoin / volatile-asset parameters. */
export const RATE_STRATEGIES = {
  stable: [ray(90), 0n, ray(4), ray(60), ray(0.5), ray(60), ray(1), ray(8), ray(20)],
  volatile: [ray(80), 0n, ray(3.3), ray(80), ray(4), ray(80), ray(2), ray(8), ray(20)],
} as const;

export function deployLinked(chain: DevnetChain, artifact: Artifact, libraries: Record<string, string>, args: readonly unknown[]): string {
  const needed = Object.fromEntries(requiredLibraries(artifact).map((name) => [name, libraries[name] ?? '']));
  return chain.deploy(
    chain.deployer,
    { abi: artifact.abi, bytecode: linkBytecode(artifact, needed) },
    args,
    artifact.contractName,
    15_000_000n,
  );
}

/** What every reserve of a pool is initialised with: token implementations and rate strategies (deployed after the pool proxy exists: the implementations read its provider). */
export interface ReserveKit {
  aTokenImpl: string;
  variableDebtImpl: string;
  stableDebtImpl: string;
  strategy: { stable: string; volatile: string };
}

export function deployReserveKit(chain: DevnetChain, pool: string, provider: string): ReserveKit {
  const { deployer } = chain;
  return {
    aTokenImpl: chain.deploy(deployer, loadAaveArtifact('AToken'), [pool], 'AToken impl'),
    variableDebtImpl: chain.deploy(deployer, loadAaveArtifact('VariableDebtToken'), [pool], 'VariableDebtToken impl'),
    stableDebtImpl: chain.deploy(deployer, loadAaveArtifact('StableDebtToken'), [pool], 'StableDebtToken impl'),
    strategy: {
      stable: chain.deploy(
        deployer,
        loadAaveArtifact('DefaultReserveInterestRateStrategy'),
        [provider, ...RATE_STRATEGIES.stable],
        'stablecoin rate strategy',
      ),
      volatile: chain.deploy(
        deployer,
        loadAaveArtifact('DefaultReserveInterestRateStrategy'),
        [provider, ...RATE_STRATEGIES.volatile],
        'volatile rate strategy',
      ),
    },
  };
}

/** One reserve's `initReserves` input, named as Aave names its markets' tokens. */
export function reserveInput(chain: DevnetChain, kit: ReserveKit, r: ReserveSpec, t: DevnetToken): Record<string, unknown> {
  const label = aaveMarketLabel(chain.network);
  return {
    aTokenImpl: kit.aTokenImpl,
    stableDebtTokenImpl: kit.stableDebtImpl,
    variableDebtTokenImpl: kit.variableDebtImpl,
    underlyingAssetDecimals: t.decimals,
    interestRateStrategyAddress: r.stable ? kit.strategy.stable : kit.strategy.volatile,
    underlyingAsset: t.address,
    treasury: chain.deployer,
    incentivesController: ZERO_ADDRESS,
    aTokenName: `Aave ${label.name} ${t.symbol}`,
    aTokenSymbol: `a${label.prefix}${t.symbol}`,
    variableDebtTokenName: `Aave ${label.name} Variable Debt ${t.symbol}`,
    variableDebtTokenSymbol: `variableDebt${label.prefix}${t.symbol}`,
    stableDebtTokenName: `Aave ${label.name} Stable Debt ${t.symbol}`,
    stableDebtTokenSymbol: `stableDebt${label.prefix}${t.symbol}`,
    params: '0x10',
  };
}

/**
 * The Aave reserves the network has (its markets, in their order) with the spec each was listed from:
 * the mainnet-shaped base lists only the reserves its real market has.
 */
export function aaveReserves(world: DevnetWorld, plan: AavePlan): Array<ReserveSpec & { symbol: string }> {
  return world.platform('aave-v3').markets.map((m) => {
    const { symbol } = world.tokenAt(m.asset);
    const spec = plan.reserves.find((r) => world.chain.resolve(r.asset) === symbol);
    if (!spec) throw new Error(`no reserve spec for the Aave market of ${symbol}`);
    return { ...spec, symbol };
  });
}

/** Chainlink-like update rule for the markets' feeds: 0.5 % deviation or a heartbeat. */
const DEVIATION = 0.005;

function oracleKeeper(world: DevnetWorld): (step: number, heartbeat: boolean) => number {
  const last = new Map<string, number>();
  for (const m of world.platform('aave-v3').markets) last.set(m.priceFeed, world.price(m.symbol, 0));
  return (step, heartbeat) => {
    let updates = 0;
    for (const m of world.platform('aave-v3').markets) {
      const price = world.price(m.symbol, step);
      const previous = last.get(m.priceFeed) ?? 0;
      if (!heartbeat && Math.abs(price / previous - 1) < DEVIATION) continue;
      world.chain.call(world.chain.deployer, m.priceFeed, AAVE_DEVNET_ABI.priceFeed(), 'setAnswer', [BigInt(Math.round(price * 1e8))], {
        gas: 150_000n,
        label: `feed ${m.symbol}`,
      });
      last.set(m.priceFeed, price);
      updates++;
    }
    return updates;
  };
}

const MAX_BORROW_SHARE = 0.25;
/** Debt grows with interest between borrow and repay; repay only with this much headroom. */
const REPAY_HEADROOM_BPS = 10_500n;

interface LendingPositions {
  supplied: Map<string, bigint>;
  debt: Map<string, bigint>;
}

function valueUsd(world: DevnetWorld, amounts: Map<string, bigint>, step: number): number {
  let usd = 0;
  for (const [asset, amount] of amounts) {
    const t = world.tokenAt(asset);
    usd += (Number(amount) / 10 ** t.decimals) * world.price(t.symbol, step);
  }
  return usd;
}

/**
 * A user supplies, borrows, repays or withdraws. Each user's positions are tracked so that these
 * stay valid: borrows stay under 25 % of collateral value, collateral is withdrawn only without debt.
 */
function queueLendingAction(world: DevnetWorld, book: Map<string, LendingPositions>, user: string, step: number): boolean {
  const { chain, rng, portfolio } = world;
  const aave = world.platform('aave-v3');
  const pool = devnetPlatformAddress(aave, 'pool');
  const iface = AAVE_DEVNET_ABI.pool();
  let positions = book.get(user);
  if (!positions) book.set(user, (positions = { supplied: new Map(), debt: new Map() }));
  const { supplied, debt } = positions;
  const collateralUsd = valueUsd(world, supplied, step);
  const debtUsd = valueUsd(world, debt, step);

  if (supplied.size === 0 || rng.chance(0.2)) {
    const market = rng.pick(aave.markets);
    const t = world.tokenAt(market.asset);
    const amount = portfolio.debitUpTo(
      user,
      t.address,
      usdToUnits(rng.logUniform(500, 100_000), world.price(t.symbol, step), t.decimals),
      0.5,
    );
    if (amount === 0n) return false;
    world.approveOnce(user, t.address, pool);
    chain.call(user, pool, iface, 'supply', [t.address, amount, user, 0], { gas: 500_000n, label: `aave supply ${t.symbol}` });
    addPosition(supplied, t.address, amount);
    return true;
  }
  const room = collateralUsd * MAX_BORROW_SHARE - debtUsd;
  if (room > 50 && rng.chance(0.5)) {
    const t = world.tokenAt(rng.pick(aave.markets).asset);
    const amount = usdToUnits(rng.next() * room, world.price(t.symbol, step), t.decimals);
    if (amount === 0n) return false;
    // interestRateMode 2 = variable; stable borrowing is disabled on these reserves.
    chain.call(user, pool, iface, 'borrow', [t.address, amount, 2, 0, user], { gas: 600_000n, label: `aave borrow ${t.symbol}` });
    addPosition(debt, t.address, amount);
    portfolio.credit(user, t.address, amount);
    return true;
  }
  for (const [asset, owed] of debt) {
    const needed = (owed * REPAY_HEADROOM_BPS) / 10_000n;
    if (portfolio.spendable(user, asset) < needed) continue;
    world.approveOnce(user, asset, pool);
    // MaxUint256 repays the whole debt including interest accrued since the borrow.
    chain.call(user, pool, iface, 'repay', [asset, MaxUint256, 2, user], {
      gas: 500_000n,
      label: `aave repay ${world.tokenAt(asset).symbol}`,
    });
    portfolio.debit(user, asset, needed);
    debt.delete(asset);
    return true;
  }
  if (debt.size === 0) {
    const [asset, principal] = [...supplied.entries()][rng.int(0, supplied.size - 1)]!;
    const all = rng.chance(0.5);
    const amount = all ? principal : principal / 2n;
    if (amount === 0n) return false;
    // All of it is MaxUint256 (the whole aToken balance): a balance read in the block of the supply
    // can round one unit below the principal, and withdrawing the principal then reverts.
    const label = `aave withdraw ${world.tokenAt(asset).symbol}`;
    chain.call(user, pool, iface, 'withdraw', [asset, all ? MaxUint256 : amount, user], { gas: 500_000n, label });
    addPosition(supplied, asset, -amount);
    portfolio.credit(user, asset, amount);
    return true;
  }
  return false;
}

/** Roles: pool, poolAddressesProvider, poolConfigurator, aclManager, oracle, dataProvider. */
export const aaveV3Devnet: DevnetFacet<'aave-v3', AavePlan> = {
  family: 'aave-v3',
  async deployMined(chain, plan, { tokens, priceOf }) {
    const { deployer } = chain;
    const abi = AAVE_DEVNET_ABI;
    const label = aaveMarketLabel(chain.network);
    const provider = chain.deploy(
      deployer,
      loadAaveArtifact('PoolAddressesProvider'),
      [`Aave ${label.name} Market`, deployer],
      'PoolAddressesProvider',
    );
    chain.call(deployer, provider, abi.provider(), 'setACLAdmin', [deployer]);
    const aclManager = chain.deploy(deployer, loadAaveArtifact('ACLManager'), [provider], 'ACLManager');
    chain.call(deployer, provider, abi.provider(), 'setACLManager', [aclManager]);
    for (const role of ['addPoolAdmin', 'addRiskAdmin', 'addEmergencyAdmin', 'addAssetListingAdmin'])
      chain.call(deployer, aclManager, abi.acl(), role, [deployer]);

    // Libraries first: Pool and PoolConfigurator bytecode embeds their addresses.
    const libraries: Record<string, string> = {};
    for (const name of [
      'SupplyLogic',
      'BorrowLogic',
      'LiquidationLogic',
      'EModeLogic',
      'BridgeLogic',
      'PoolLogic',
      'ConfiguratorLogic',
      'FlashLoanLogic',
    ]) {
      libraries[name] = deployLinked(chain, loadAaveArtifact(name), libraries, []);
    }
    const poolImpl = deployLinked(chain, loadAaveArtifact('Pool'), libraries, [provider]);
    // Initialising the implementation itself stops anyone else from doing so.
    chain.call(deployer, poolImpl, abi.pool(), 'initialize', [provider]);
    chain.call(deployer, provider, abi.provider(), 'setPoolImpl', [poolImpl], { gas: 3_000_000n });
    const configuratorImpl = deployLinked(chain, loadAaveArtifact('PoolConfigurator'), libraries, []);
    chain.call(deployer, configuratorImpl, abi.configurator(), 'initialize', [provider]);
    chain.call(deployer, provider, abi.provider(), 'setPoolConfiguratorImpl', [configuratorImpl], { gas: 3_000_000n });
    const dataProvider = chain.deploy(deployer, loadAaveArtifact('AaveProtocolDataProvider'), [provider], 'AaveProtocolDataProvider');
    chain.call(deployer, provider, abi.provider(), 'setPoolDataProvider', [dataProvider]);

    const assets = plan.reserves.map((r) => devnetToken(tokens, r.asset));
    const feeds = assets.map((t) =>
      chain.deploy(
        deployer,
        loadArtifact('MockPriceFeed'),
        [8, `${t.symbol === 'WETH' ? 'ETH' : t.symbol} / USD`, BigInt(Math.round(priceOf(t.symbol) * 1e8)), deployer],
        `${t.symbol} feed`,
        2_000_000n,
      ),
    );
    // Base currency USD with 8 decimals, as on Aave's mainnet markets.
    const oracle = chain.deploy(
      deployer,
      loadAaveArtifact('AaveOracle'),
      [provider, assets.map((a) => a.address), feeds, ZERO_ADDRESS, ZERO_ADDRESS, 10n ** 8n],
      'AaveOracle',
    );
    chain.call(deployer, provider, abi.provider(), 'setPriceOracle', [oracle]);
    await chain.mine();

    const [pool, configurator] = await chain.read([
      { to: provider, iface: abi.provider(), fn: 'getPool' },
      { to: provider, iface: abi.provider(), fn: 'getPoolConfigurator' },
    ]);
    const poolAddress = String(pool?.[0]);
    const configuratorAddress = String(configurator?.[0]);

    const kit = deployReserveKit(chain, poolAddress, provider);
    const inputs = plan.reserves.map((r) => reserveInput(chain, kit, r, devnetToken(tokens, r.asset)));
    const cfg = abi.configurator();
    chain.call(deployer, configuratorAddress, cfg, 'initReserves', [inputs], { gas: 25_000_000n });
    for (const r of plan.reserves) {
      const asset = devnetToken(tokens, r.asset).address;
      chain.call(
        deployer,
        configuratorAddress,
        cfg,
        'configureReserveAsCollateral',
        [asset, r.ltv, r.liquidationThreshold, r.liquidationBonus],
        { label: `collateral ${r.asset}` },
      );
      chain.call(deployer, configuratorAddress, cfg, 'setReserveBorrowing', [asset, true], { label: `borrowing ${r.asset}` });
      chain.call(deployer, configuratorAddress, cfg, 'setReserveFactor', [asset, r.reserveFactor], { label: `reserve factor ${r.asset}` });
    }
    await chain.mine();

    const markets: DevnetMarket[] = [];
    for (const [i, r] of plan.reserves.entries()) {
      const t = devnetToken(tokens, r.asset);
      const [res] = await chain.read([{ to: dataProvider, iface: abi.dataProvider(), fn: 'getReserveTokensAddresses', args: [t.address] }]);
      markets.push({
        asset: t.address,
        symbol: t.symbol,
        aToken: String(res![0]),
        stableDebtToken: String(res![1]),
        variableDebtToken: String(res![2]),
        priceFeed: feeds[i]!,
        interestRateStrategy: r.stable ? kit.strategy.stable : kit.strategy.volatile,
      });
    }
    return [
      {
        slug: plan.platform.slug,
        name: plan.platform.name,
        family: 'aave-v3',
        addresses: {
          pool: poolAddress,
          poolAddressesProvider: provider,
          poolConfigurator: configuratorAddress,
          aclManager,
          oracle,
          dataProvider,
        },
        pools: [],
        vaults: [],
        markets,
      },
    ];
  },
  liquidity: {
    // The third liquidity provider supplies every reserve.
    grants(world, plan) {
      const lp = world.accounts.liquidityProviders[2]!;
      return aaveReserves(world, plan).map((r) => ({ to: lp, symbol: r.symbol, usd: r.seedUsd }));
    },
    add(world, plan) {
      const { chain, portfolio } = world;
      const lp = world.accounts.liquidityProviders[2]!;
      const pool = devnetPlatformAddress(world.platform('aave-v3'), 'pool');
      for (const r of aaveReserves(world, plan)) {
        const t = world.token(r.symbol);
        const amount = usdToUnits(r.seedUsd, world.price(r.symbol, 0), t.decimals);
        world.approveOnce(lp, t.address, pool);
        chain.call(lp, pool, AAVE_DEVNET_ABI.pool(), 'supply', [t.address, amount, lp, 0], {
          gas: 500_000n,
          label: `aave supply ${r.symbol}`,
        });
        portfolio.debit(lp, t.address, amount);
      }
    },
  },
  history(world) {
    const keep = oracleKeeper(world);
    const book = new Map<string, LendingPositions>();
    return {
      // The feeds' owner posts a round on a 0.5 % move, and every feed once a day.
      upkeep: async (step, heartbeat) => {
        keep(step, heartbeat);
      },
      actions: [{ slot: 6, weight: 13, run: (trader, _pools, step) => queueLendingAction(world, book, trader, step) }],
    };
  },
};
