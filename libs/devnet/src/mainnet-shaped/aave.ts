/**
 * Aave V3 (core 1.19, published artifacts) at the network's real addresses, wired like the devnet's
 * deployAave but in the order the real addresses need:
 * - PoolAddressesProvider, ACLManager, AaveOracle, AaveProtocolDataProvider: deployed at scratch
 *   addresses with constructor arguments naming the real provider, then code + storage copied to
 *   the real addresses (their deployers are not known here).
 * - Pool and PoolConfigurator proxies: created by the provider itself (CREATE) at the nonce that
 *   yields the real address (anvil_setNonce on the provider, then setPoolImpl / setPoolConfiguratorImpl).
 * - aTokens and variable debt tokens: created by the real configurator in initReserves at the nonce
 *   that yields the registry's aToken (the debt tokens follow at +1 and +2, as on mainnet).
 * Implementations, libraries, rate strategies and the price feeds stay at scratch addresses: the
 * registry does not name them. ReserveInitialized and every later event come from the real addresses.
 */
import { loadAaveArtifact, loadArtifact } from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { getAddress } from 'ethers';
import { ABI } from '../chain/abis';
import { readOne } from '../chain/reader';
import { toHex } from '../chain/rpc';
import { AAVE_PLATFORM, AAVE_RESERVES, aaveMarketLabel } from '../config';
import { deployLinked, deployReserveKit, reserveInput } from '@tokensvc/protocols/devnet';
import { type BuildContext, devnetChain, mineNext, tokenBySymbol } from '../deploy/context';
import type { ManifestMarket, ManifestPlatform, ManifestToken } from '../manifest';
import { symbolResolver } from '../deploy/network';
import type { RealBook } from './book';
import { type Placement, creatorNonce, placeBySetCode } from './place';

async function createdAt(
  ctx: BuildContext,
  creator: string,
  target: string,
  send: () => void,
  what: string,
  placements: Placement[],
): Promise<number> {
  const nonce = creatorNonce(creator, target);
  if (nonce === undefined) throw new Error(`${what}: no nonce of ${creator} creates ${target}`);
  await ctx.rpc.call('anvil_setNonce', [creator, toHex(nonce)]);
  send();
  await mineNext(ctx);
  placements.push({ address: getAddress(target), what, method: 'creator-nonce', from: getAddress(creator), nonce });
  return nonce;
}

export async function placeAave(
  ctx: BuildContext,
  book: RealBook,
  tokens: readonly ManifestToken[],
  priceOf: (symbol: string) => number,
  placements: Placement[],
): Promise<ManifestPlatform> {
  const { writer, deployer } = ctx;
  const role = (r: string): string => book.address(AAVE_PLATFORM.slug, r);
  const provider = role('poolAddressesProvider');
  const pool = role('pool');
  const configurator = role('poolConfigurator');
  const label = aaveMarketLabel(ctx.network);
  placements.push(
    ...(await placeBySetCode(ctx, [
      {
        what: 'aave-v3 poolAddressesProvider',
        real: provider,
        artifact: loadAaveArtifact('PoolAddressesProvider'),
        args: [`Aave ${label.name} Market`, deployer],
      },
    ])),
  );
  writer.call(deployer, provider, ABI.aaveProvider(), 'setACLAdmin', [deployer]);

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
    libraries[name] = deployLinked(devnetChain(ctx), loadAaveArtifact(name), libraries, []);
  }
  const poolImpl = deployLinked(devnetChain(ctx), loadAaveArtifact('Pool'), libraries, [provider]);
  const configuratorImpl = deployLinked(devnetChain(ctx), loadAaveArtifact('PoolConfigurator'), libraries, []);
  // The devnet's reserves (stand-ins resolved) that the registry's market has: all four on
  // ethereum and arbitrum; USDC, WETH and cbBTC (for WBTC) on base, whose market has no DAI.
  const resolve = symbolResolver(ctx);
  const reserves = AAVE_RESERVES.map((r) => ({ ...r, asset: resolve(r.asset) })).filter((r) =>
    book.hasMarket(tokenBySymbol(tokens, r.asset).address),
  );
  const assets = reserves.map((r) => tokenBySymbol(tokens, r.asset));
  const feeds = assets.map((t) =>
    writer.deploy(
      deployer,
      loadArtifact('MockPriceFeed'),
      [8, `${t.symbol === 'WETH' ? 'ETH' : t.symbol} / USD`, BigInt(Math.round(priceOf(t.symbol) * 1e8)), deployer],
      `${t.symbol} feed`,
      2_000_000n,
    ),
  );
  await mineNext(ctx);
  // ACLManager's constructor reads the ACL admin from the provider, already at its real address.
  placements.push(
    ...(await placeBySetCode(ctx, [
      { what: 'aave-v3 aclManager', real: role('aclManager'), artifact: loadAaveArtifact('ACLManager'), args: [provider] },
      {
        what: 'aave-v3 dataProvider',
        real: role('dataProvider'),
        artifact: loadAaveArtifact('AaveProtocolDataProvider'),
        args: [provider],
      },
      {
        what: 'aave-v3 oracle',
        real: role('oracle'),
        artifact: loadAaveArtifact('AaveOracle'),
        args: [provider, assets.map((a) => a.address), feeds, ZERO_ADDRESS, ZERO_ADDRESS, 10n ** 8n],
      },
    ])),
  );
  writer.call(deployer, provider, ABI.aaveProvider(), 'setACLManager', [role('aclManager')]);
  for (const r of ['addPoolAdmin', 'addRiskAdmin', 'addEmergencyAdmin', 'addAssetListingAdmin'])
    writer.call(deployer, role('aclManager'), ABI.aaveAcl(), r, [deployer]);
  writer.call(deployer, poolImpl, ABI.aavePool(), 'initialize', [provider]);
  writer.call(deployer, configuratorImpl, ABI.aaveConfigurator(), 'initialize', [provider]);
  writer.call(deployer, provider, ABI.aaveProvider(), 'setPoolDataProvider', [role('dataProvider')]);
  writer.call(deployer, provider, ABI.aaveProvider(), 'setPriceOracle', [role('oracle')]);
  await mineNext(ctx);
  await createdAt(
    ctx,
    provider,
    pool,
    () => writer.call(deployer, provider, ABI.aaveProvider(), 'setPoolImpl', [poolImpl], { gas: 3_000_000n }),
    'aave-v3 pool (proxy)',
    placements,
  );
  await createdAt(
    ctx,
    provider,
    configurator,
    () => writer.call(deployer, provider, ABI.aaveProvider(), 'setPoolConfiguratorImpl', [configuratorImpl], { gas: 3_000_000n }),
    'aave-v3 poolConfigurator (proxy)',
    placements,
  );

  // Token implementations read the pool's provider in their constructors: after the pool proxy exists.
  const kit = deployReserveKit(devnetChain(ctx), pool, provider);
  await mineNext(ctx);
  const cfg = ABI.aaveConfigurator();
  const markets: ManifestMarket[] = [];
  for (const [i, r] of reserves.entries()) {
    const t = tokenBySymbol(tokens, r.asset);
    const real = book.market(t.address);
    const input = reserveInput(devnetChain(ctx), kit, r, t);
    const nonce = await createdAt(
      ctx,
      configurator,
      real.aToken,
      () => writer.call(deployer, configurator, cfg, 'initReserves', [[input]], { gas: 10_000_000n }),
      `aave-v3 a${label.prefix}${t.symbol}`,
      placements,
    );
    const res = await readOne(ctx.rpc, {
      to: role('dataProvider'),
      iface: ABI.aaveDataProvider(),
      fn: 'getReserveTokensAddresses',
      args: [t.address],
    });
    const [aToken, stableDebtToken, variableDebtToken] = [String(res[0]), String(res[1]), String(res[2])];
    if (aToken.toLowerCase() !== real.aToken.toLowerCase() || variableDebtToken.toLowerCase() !== real.variableDebtToken.toLowerCase()) {
      throw new Error(
        `aave-v3 ${t.symbol}: tokens at ${aToken}/${variableDebtToken}, the registry names ${real.aToken}/${real.variableDebtToken}`,
      );
    }
    placements.push({
      address: getAddress(variableDebtToken),
      what: `aave-v3 variableDebt${label.prefix}${t.symbol}`,
      method: 'creator-nonce',
      from: getAddress(configurator),
      nonce: nonce + 2,
    });
    markets.push({
      asset: t.address,
      symbol: t.symbol,
      aToken,
      stableDebtToken,
      variableDebtToken,
      priceFeed: feeds[i]!,
      interestRateStrategy: r.stable ? kit.strategy.stable : kit.strategy.volatile,
    });
    writer.call(
      deployer,
      configurator,
      cfg,
      'configureReserveAsCollateral',
      [t.address, r.ltv, r.liquidationThreshold, r.liquidationBonus],
      { label: `collateral ${r.asset}` },
    );
    writer.call(deployer, configurator, cfg, 'setReserveBorrowing', [t.address, true], { label: `borrowing ${r.asset}` });
    writer.call(deployer, configurator, cfg, 'setReserveFactor', [t.address, r.reserveFactor], { label: `reserve factor ${r.asset}` });
  }
  await mineNext(ctx);
  return {
    slug: AAVE_PLATFORM.slug,
    name: AAVE_PLATFORM.name,
    family: 'aave-v3',
    addresses: {
      pool,
      poolAddressesProvider: provider,
      poolConfigurator: configurator,
      aclManager: role('aclManager'),
      oracle: role('oracle'),
      dataProvider: role('dataProvider'),
    },
    pools: [],
    vaults: [],
    markets,
  };
}
