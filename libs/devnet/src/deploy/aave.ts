/**
 * Aave V3 (core 1.19) from the published artifacts, wired the way Aave's own deploy scripts do:
 * addresses provider → ACL → linked Pool/Configurator behind the provider's proxies → oracle with
 * one Chainlink-style feed per asset → token implementations → reserves via initReserves.
 */
import { type Artifact, linkBytecode, loadAaveArtifact, loadArtifact, requiredLibraries } from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { ABI } from '../chain/abis';
import { readMany, readOne } from '../chain/reader';
import { AAVE_PLATFORM, type ReserveSpec, aaveMarketLabel } from '../config';
import type { ManifestMarket, ManifestPlatform, ManifestToken } from '../manifest';
import { type BuildContext, mineNext, tokenBySymbol } from './context';

const RAY = 10n ** 27n;
const ray = (percent: number): bigint => (RAY * BigInt(Math.round(percent * 100))) / 10_000n;

/** Rate curves close to Aave's published stablecoin / volatile-asset parameters. */
export const RATE_STRATEGIES = {
  stable: [ray(90), 0n, ray(4), ray(60), ray(0.5), ray(60), ray(1), ray(8), ray(20)],
  volatile: [ray(80), 0n, ray(3.3), ray(80), ray(4), ray(80), ray(2), ray(8), ray(20)],
} as const;

export function deployLinked(ctx: BuildContext, artifact: Artifact, libraries: Record<string, string>, args: readonly unknown[]): string {
  const needed = Object.fromEntries(requiredLibraries(artifact).map((name) => [name, libraries[name] ?? '']));
  return ctx.writer.deploy(ctx.deployer, { abi: artifact.abi, bytecode: linkBytecode(artifact, needed) }, args, artifact.contractName, 15_000_000n);
}

/** What every reserve of a pool is initialised with: token implementations and rate strategies (deployed after the pool proxy exists: the implementations read its provider). */
export interface ReserveKit {
  aTokenImpl: string;
  variableDebtImpl: string;
  stableDebtImpl: string;
  strategy: { stable: string; volatile: string };
}

export function deployReserveKit(ctx: BuildContext, pool: string, provider: string): ReserveKit {
  const { writer, deployer } = ctx;
  return {
    aTokenImpl: writer.deploy(deployer, loadAaveArtifact('AToken'), [pool], 'AToken impl'),
    variableDebtImpl: writer.deploy(deployer, loadAaveArtifact('VariableDebtToken'), [pool], 'VariableDebtToken impl'),
    stableDebtImpl: writer.deploy(deployer, loadAaveArtifact('StableDebtToken'), [pool], 'StableDebtToken impl'),
    strategy: {
      stable: writer.deploy(deployer, loadAaveArtifact('DefaultReserveInterestRateStrategy'), [provider, ...RATE_STRATEGIES.stable], 'stablecoin rate strategy'),
      volatile: writer.deploy(deployer, loadAaveArtifact('DefaultReserveInterestRateStrategy'), [provider, ...RATE_STRATEGIES.volatile], 'volatile rate strategy'),
    },
  };
}

/** One reserve's `initReserves` input, named as Aave names its markets' tokens. */
export function reserveInput(ctx: BuildContext, kit: ReserveKit, r: ReserveSpec, t: ManifestToken): Record<string, unknown> {
  const label = aaveMarketLabel(ctx.network);
  return {
    aTokenImpl: kit.aTokenImpl,
    stableDebtTokenImpl: kit.stableDebtImpl,
    variableDebtTokenImpl: kit.variableDebtImpl,
    underlyingAssetDecimals: t.decimals,
    interestRateStrategyAddress: r.stable ? kit.strategy.stable : kit.strategy.volatile,
    underlyingAsset: t.address,
    treasury: ctx.deployer,
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

export async function deployAave(ctx: BuildContext, reserves: readonly ReserveSpec[], tokens: readonly ManifestToken[], priceOf: (symbol: string) => number): Promise<ManifestPlatform> {
  const { writer, deployer, rpc } = ctx;
  const label = aaveMarketLabel(ctx.network);
  const provider = writer.deploy(deployer, loadAaveArtifact('PoolAddressesProvider'), [`Aave ${label.name} Market`, deployer], 'PoolAddressesProvider');
  writer.call(deployer, provider, ABI.aaveProvider(), 'setACLAdmin', [deployer]);
  const aclManager = writer.deploy(deployer, loadAaveArtifact('ACLManager'), [provider], 'ACLManager');
  writer.call(deployer, provider, ABI.aaveProvider(), 'setACLManager', [aclManager]);
  for (const role of ['addPoolAdmin', 'addRiskAdmin', 'addEmergencyAdmin', 'addAssetListingAdmin']) writer.call(deployer, aclManager, ABI.aaveAcl(), role, [deployer]);

  // Libraries first: Pool and PoolConfigurator bytecode embeds their addresses.
  const libraries: Record<string, string> = {};
  for (const name of ['SupplyLogic', 'BorrowLogic', 'LiquidationLogic', 'EModeLogic', 'BridgeLogic', 'PoolLogic', 'ConfiguratorLogic', 'FlashLoanLogic']) {
    libraries[name] = deployLinked(ctx, loadAaveArtifact(name), libraries, []);
  }
  const poolImpl = deployLinked(ctx, loadAaveArtifact('Pool'), libraries, [provider]);
  // Initialising the implementation itself stops anyone else from doing so.
  writer.call(deployer, poolImpl, ABI.aavePool(), 'initialize', [provider]);
  writer.call(deployer, provider, ABI.aaveProvider(), 'setPoolImpl', [poolImpl], { gas: 3_000_000n });
  const configuratorImpl = deployLinked(ctx, loadAaveArtifact('PoolConfigurator'), libraries, []);
  writer.call(deployer, configuratorImpl, ABI.aaveConfigurator(), 'initialize', [provider]);
  writer.call(deployer, provider, ABI.aaveProvider(), 'setPoolConfiguratorImpl', [configuratorImpl], { gas: 3_000_000n });
  const dataProvider = writer.deploy(deployer, loadAaveArtifact('AaveProtocolDataProvider'), [provider], 'AaveProtocolDataProvider');
  writer.call(deployer, provider, ABI.aaveProvider(), 'setPoolDataProvider', [dataProvider]);

  const assets = reserves.map((r) => tokenBySymbol(tokens, r.asset));
  const feeds = assets.map((t) =>
    writer.deploy(deployer, loadArtifact('MockPriceFeed'), [8, `${t.symbol === 'WETH' ? 'ETH' : t.symbol} / USD`, BigInt(Math.round(priceOf(t.symbol) * 1e8)), deployer], `${t.symbol} feed`, 2_000_000n),
  );
  // Base currency USD with 8 decimals, as on Aave's mainnet markets.
  const oracle = writer.deploy(deployer, loadAaveArtifact('AaveOracle'), [provider, assets.map((a) => a.address), feeds, ZERO_ADDRESS, ZERO_ADDRESS, 10n ** 8n], 'AaveOracle');
  writer.call(deployer, provider, ABI.aaveProvider(), 'setPriceOracle', [oracle]);
  await mineNext(ctx);

  const [pool, configurator] = await readMany(rpc, [
    { to: provider, iface: ABI.aaveProvider(), fn: 'getPool' },
    { to: provider, iface: ABI.aaveProvider(), fn: 'getPoolConfigurator' },
  ]);
  const poolAddress = String(pool?.[0]);
  const configuratorAddress = String(configurator?.[0]);

  const kit = deployReserveKit(ctx, poolAddress, provider);
  const inputs = reserves.map((r) => reserveInput(ctx, kit, r, tokenBySymbol(tokens, r.asset)));
  const cfg = ABI.aaveConfigurator();
  writer.call(deployer, configuratorAddress, cfg, 'initReserves', [inputs], { gas: 25_000_000n });
  for (const r of reserves) {
    const asset = tokenBySymbol(tokens, r.asset).address;
    writer.call(deployer, configuratorAddress, cfg, 'configureReserveAsCollateral', [asset, r.ltv, r.liquidationThreshold, r.liquidationBonus], { label: `collateral ${r.asset}` });
    writer.call(deployer, configuratorAddress, cfg, 'setReserveBorrowing', [asset, true], { label: `borrowing ${r.asset}` });
    writer.call(deployer, configuratorAddress, cfg, 'setReserveFactor', [asset, r.reserveFactor], { label: `reserve factor ${r.asset}` });
  }
  await mineNext(ctx);

  const markets: ManifestMarket[] = [];
  for (const [i, r] of reserves.entries()) {
    const t = tokenBySymbol(tokens, r.asset);
    const res = await readOne(rpc, { to: dataProvider, iface: ABI.aaveDataProvider(), fn: 'getReserveTokensAddresses', args: [t.address] });
    markets.push({
      asset: t.address,
      symbol: t.symbol,
      aToken: String(res[0]),
      stableDebtToken: String(res[1]),
      variableDebtToken: String(res[2]),
      priceFeed: feeds[i]!,
      interestRateStrategy: r.stable ? kit.strategy.stable : kit.strategy.volatile,
    });
  }
  return {
    slug: AAVE_PLATFORM.slug,
    name: AAVE_PLATFORM.name,
    family: 'aave-v3',
    addresses: { pool: poolAddress, poolAddressesProvider: provider, poolConfigurator: configuratorAddress, aclManager, oracle, dataProvider },
    pools: [],
    vaults: [],
    markets,
  };
}
