/**
 * Tokens, Multicall3, Uniswap V2/SushiSwap, Uniswap V3 and the ERC-4626 vaults of the profile, at
 * their real addresses (see place.ts for how each is placed). Pairs and pools are created by the
 * factories standing at their real addresses, so they land where CREATE2 puts them.
 */
import {
  UNISWAP_V2_PAIR_INIT_CODE_HASH,
  UNISWAP_V3_POOL_INIT_CODE_HASH,
  loadArtifact,
  loadUniswapV2Artifact,
  loadUniswapV3Artifact,
  loadUniswapV4Artifact,
  loadUniversalRouterArtifact,
  loadWeth9Artifact,
  type Artifact,
} from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ABI } from '../chain/abis';
import { V2_PLATFORMS, V3_PLATFORM, V3_POOLS, VAULTS, VAULTS_PLATFORM, WETH_SPEC, aaveMarketLabel } from '../config';
import { type BuildContext, tokenBySymbol } from '../deploy/context';
import { symbolResolver } from '../deploy/network';
import { v2PairAddress, v3PoolAddress } from '@tokensvc/protocols/devnet';
import type { ManifestPlatform, ManifestPool, ManifestToken } from '../manifest';
import { encodeSqrtPriceX96, rawPrice, sortTokens, tickSpacingOf } from '../math/uniswap';
import { type RealBook, profileTokenSpecs } from './book';
import { type Placement, placeByCreate, placeBySetCode, sendAtNonce } from './place';

/** SwapRouter02 (the router the registry names) from its published build. */
function swapRouter02Artifact(): Artifact {
  const json = JSON.parse(
    readFileSync(
      join(
        dirname(require.resolve('@uniswap/swap-router-contracts/package.json')),
        'artifacts',
        'contracts',
        'SwapRouter02.sol',
        'SwapRouter02.json',
      ),
      'utf8',
    ),
  ) as Artifact;
  return {
    contractName: 'SwapRouter02',
    abi: json.abi,
    bytecode: json.bytecode,
    deployedBytecode: json.deployedBytecode,
    linkReferences: {},
  };
}

export interface PlacedTokens {
  /** the devnet's trading set (what the seeders use) at real addresses */
  traded: ManifestToken[];
  /** listed tokens and vault assets placed only so the addresses hold code */
  extra: ManifestToken[];
}

/** Vault assets by registry label, for vaults whose label does not name it (`static aUSDC` does). */
const VAULT_ASSETS: Record<string, string> = { sDAI: 'DAI', sUSDe: 'USDe' };
const vaultAsset = (label: string): string => (label.startsWith('static a') ? label.slice('static a'.length) : (VAULT_ASSETS[label] ?? ''));

/** The devnet seeder's vault specs (by symbol) played by the registry's vaults of the same asset. */
const SEEDED_AS: Record<string, string> = { sDAI: 'sDAI', 'static aUSDC': 'steakUSDC', 'static aWETH': 'gtWETH' };

export async function placeTokens(
  ctx: BuildContext,
  book: RealBook,
  priceOf: (symbol: string) => number,
  placements: Placement[],
): Promise<PlacedTokens> {
  placements.push(
    await placeByCreate(ctx, {
      what: 'Multicall3',
      real: book.multicall3,
      ...book.origin('multicall3')!,
      artifact: loadArtifact('Multicall3'),
      args: [],
    }),
  );
  const traded: ManifestToken[] = [];
  const extra: ManifestToken[] = [];
  const specs = profileTokenSpecs(ctx.network);
  const tradedSymbols = new Set(specs.map((s) => s.symbol));
  const wanted = [
    ...specs.map((s) => ({ symbol: s.symbol, name: s.name, decimals: s.decimals, traded: true })),
    ...book.net.tokens
      .filter((t) => !tradedSymbols.has(t.symbol))
      .map((t) => ({ symbol: t.symbol, name: t.name, decimals: t.decimals, traded: false })),
    ...book
      .vaults()
      .map((v) => vaultAsset(v.label))
      .filter((s, i, all) => s && !tradedSymbols.has(s) && !book.net.tokens.some((t) => t.symbol === s) && all.indexOf(s) === i)
      .map((symbol) => ({ symbol, name: symbol, decimals: 18, traded: false })),
  ];
  const bySetCode: Parameters<typeof placeBySetCode>[1][number][] = [];
  const seen = new Set<string>();
  for (const w of wanted) {
    const real = book.token(w.symbol);
    // One contract per address: a vault's asset can be a listed token under another symbol (USDT, USDT0).
    if (seen.has(real.toLowerCase())) continue;
    seen.add(real.toLowerCase());
    const listed = book.net.tokens.find((t) => t.symbol === w.symbol);
    if (listed && listed.decimals !== w.decimals)
      throw new Error(`${w.symbol}: the registry says ${listed.decimals} decimals, the devnet ${w.decimals}`);
    const name = listed?.name ?? w.name;
    const token: ManifestToken = {
      symbol: w.symbol,
      name: w.symbol === 'WETH' ? WETH_SPEC.name : name,
      decimals: w.decimals,
      address: real,
      priceUsd: w.traded ? priceOf(w.symbol) : 0,
    };
    (w.traded ? traded : extra).push(token);
    const artifact = w.symbol === 'WETH' ? loadWeth9Artifact() : loadArtifact('TestERC20');
    const args = w.symbol === 'WETH' ? [] : [name, w.symbol, w.decimals, ctx.deployer];
    const origin = book.origin(w.symbol);
    if (origin) placements.push(await placeByCreate(ctx, { what: `token ${w.symbol}`, real, ...origin, artifact, args }));
    else bySetCode.push({ what: `token ${w.symbol}`, real, artifact, args, gas: 3_000_000n });
  }
  placements.push(...(await placeBySetCode(ctx, bySetCode)));
  return { traded, extra };
}

/** Both V2-family platforms: factory and Router02 copied to their real addresses, pairs created there. */
export async function placeV2(
  ctx: BuildContext,
  book: RealBook,
  tokens: readonly ManifestToken[],
  placements: Placement[],
): Promise<ManifestPlatform[]> {
  const weth = tokenBySymbol(tokens, 'WETH').address;
  const resolve = symbolResolver(ctx);
  const deploys = V2_PLATFORMS.flatMap((spec) => [
    {
      what: `${spec.slug} factory`,
      real: book.address(spec.slug, 'factory'),
      artifact: loadUniswapV2Artifact('UniswapV2Factory'),
      args: [ctx.deployer],
      gas: 3_500_000n,
    },
    {
      what: `${spec.slug} router`,
      real: book.address(spec.slug, 'router'),
      artifact: loadUniswapV2Artifact('UniswapV2Router02'),
      args: [book.address(spec.slug, 'factory'), weth],
      gas: 5_000_000n,
    },
  ]);
  placements.push(...(await placeBySetCode(ctx, deploys)));
  return V2_PLATFORMS.map((spec) => {
    const factory = book.address(spec.slug, 'factory');
    const pools: ManifestPool[] = spec.pools.map((p) => {
      const [t0, t1] = sortTokens(tokenBySymbol(tokens, resolve(p.a)), tokenBySymbol(tokens, resolve(p.b)));
      ctx.writer.call(ctx.deployer, factory, ABI.v2Factory(), 'createPair', [t0.address, t1.address], {
        gas: 3_000_000n,
        label: `${spec.slug} createPair ${t0.symbol}/${t1.symbol}`,
      });
      return {
        address: v2PairAddress(factory, t0.address, t1.address),
        pair: `${t0.symbol}/${t1.symbol}`,
        token0: t0.address,
        token1: t1.address,
        fee: 3000,
      };
    });
    return {
      slug: spec.slug,
      name: spec.name,
      family: 'uniswap-v2',
      addresses: { factory, router: book.address(spec.slug, 'router') },
      pools,
      vaults: [],
      markets: [],
    };
  });
}

/**
 * Uniswap V3 from its real deployer at the original nonces (factory 0, fee tier 1, Quoter 3,
 * NonfungiblePositionManager 8, SwapRouter02 14) where the book knows them (ethereum, arbitrum);
 * elsewhere (base) deployed at scratch addresses and copied, the factory's NoDelegateCall
 * immutable (`original = address(this)`, checked by createPool) rewritten to the real address.
 * Pools are created by the factory at its real address and initialised at `priceOf`.
 * The seeders trade through a SwapRouter (V1) at a scratch address: not part of the registry.
 */
export async function placeV3(
  ctx: BuildContext,
  book: RealBook,
  tokens: readonly ManifestToken[],
  priceOf: (symbol: string) => number,
  placements: Placement[],
): Promise<ManifestPlatform> {
  const weth = tokenBySymbol(tokens, 'WETH').address;
  const real = (r: string): string => book.address('uniswap-v3', r);
  const v2Factory = book.address('uniswap-v2', 'factory');
  const factory = real('factory');
  const npm = real('positionManager');
  const origin = book.origin('uniswap-v3.factory');
  if (origin) {
    const role = (r: string): { real: string; from: string; nonce: number } => ({ real: real(r), ...book.origin(`uniswap-v3.${r}`)! });
    placements.push(
      await placeByCreate(ctx, {
        what: 'uniswap-v3 factory',
        ...role('factory'),
        artifact: loadUniswapV3Artifact('UniswapV3Factory'),
        args: [],
      }),
    );
    // The 0.01 % tier: enabled on mainnet by governance later, here by the owner right away.
    await sendAtNonce(
      ctx,
      origin.from,
      origin.nonce + 1,
      { to: factory, data: ABI.v3Factory().encodeFunctionData('enableFeeAmount', [100, 1]), gas: 200_000n },
      'enableFeeAmount',
    );
    placements.push(
      await placeByCreate(ctx, {
        what: 'uniswap-v3 quoter',
        ...role('quoter'),
        artifact: loadUniswapV3Artifact('Quoter'),
        args: [factory, weth],
      }),
    );
    placements.push(
      await placeByCreate(ctx, {
        what: 'uniswap-v3 positionManager',
        ...role('positionManager'),
        artifact: loadUniswapV3Artifact('NonfungiblePositionManager'),
        args: [factory, weth, ZERO_ADDRESS],
      }),
    );
    placements.push(
      await placeByCreate(ctx, {
        what: 'uniswap-v3 swapRouter02',
        ...role('swapRouter02'),
        artifact: swapRouter02Artifact(),
        args: [v2Factory, factory, npm, weth],
      }),
    );
  } else {
    placements.push(
      ...(await placeBySetCode(ctx, [
        {
          what: 'uniswap-v3 factory',
          real: factory,
          artifact: loadUniswapV3Artifact('UniswapV3Factory'),
          args: [],
          gas: 7_000_000n,
          rewriteSelf: true,
        },
        {
          what: 'uniswap-v3 quoter',
          real: real('quoter'),
          artifact: loadUniswapV3Artifact('Quoter'),
          args: [factory, weth],
          gas: 4_000_000n,
        },
        {
          what: 'uniswap-v3 positionManager',
          real: npm,
          artifact: loadUniswapV3Artifact('NonfungiblePositionManager'),
          args: [factory, weth, ZERO_ADDRESS],
          gas: 7_000_000n,
        },
        {
          what: 'uniswap-v3 swapRouter02',
          real: real('swapRouter02'),
          artifact: swapRouter02Artifact(),
          args: [v2Factory, factory, npm, weth],
          gas: 7_000_000n,
        },
      ])),
    );
    // The factory's owner is the build's deployer (its constructor ran at the scratch address; the storage was copied).
    ctx.writer.call(ctx.deployer, factory, ABI.v3Factory(), 'enableFeeAmount', [100, 1], { gas: 200_000n, label: 'enableFeeAmount' });
  }
  const seederRouter = ctx.writer.deploy(
    ctx.deployer,
    loadUniswapV3Artifact('SwapRouter'),
    [factory, weth],
    'SwapRouter (seeder only)',
    5_000_000n,
  );
  const resolve = symbolResolver(ctx);
  const pools: ManifestPool[] = V3_POOLS.map((spec) => {
    const [t0, t1] = sortTokens(tokenBySymbol(tokens, resolve(spec.a)), tokenBySymbol(tokens, resolve(spec.b)));
    const address = v3PoolAddress(factory, t0.address, t1.address, spec.fee);
    const label = `${t0.symbol}/${t1.symbol} ${spec.fee}`;
    ctx.writer.call(ctx.deployer, factory, ABI.v3Factory(), 'createPool', [t0.address, t1.address, spec.fee], {
      gas: 6_000_000n,
      label: `createPool ${label}`,
    });
    const sqrtPriceX96 = encodeSqrtPriceX96(rawPrice(priceOf(t0.symbol), t0.decimals, priceOf(t1.symbol), t1.decimals));
    ctx.writer.call(ctx.deployer, address, ABI.v3Pool(), 'initialize', [sqrtPriceX96], { gas: 200_000n, label: `initialize ${label}` });
    return {
      address,
      pair: `${t0.symbol}/${t1.symbol}`,
      token0: t0.address,
      token1: t1.address,
      fee: spec.fee,
      tickSpacing: tickSpacingOf(spec.fee),
    };
  });
  return {
    slug: V3_PLATFORM.slug,
    name: V3_PLATFORM.name,
    family: 'uniswap-v3',
    addresses: { factory, positionManager: npm, router: seederRouter, quoter: real('quoter'), swapRouter02: real('swapRouter02') },
    pools,
    vaults: [],
    markets: [],
  };
}

/** Every registry vault as a TestVault over its asset; the three the seeder knows get its yield. */
export async function placeVaults(
  ctx: BuildContext,
  book: RealBook,
  all: readonly ManifestToken[],
  placements: Placement[],
): Promise<ManifestPlatform> {
  const vaults = book.vaults().map((v) => {
    const assetAddress = book.token(vaultAsset(v.label)).toLowerCase();
    const asset = all.find((t) => t.address.toLowerCase() === assetAddress);
    if (!asset) throw new Error(`${v.label}: its asset ${assetAddress} was not placed`);
    const [name, symbol] = v.label.startsWith('static a')
      ? [`Static Aave ${aaveMarketLabel(ctx.network).name} ${asset.symbol}`, `stata${aaveMarketLabel(ctx.network).prefix}${asset.symbol}`]
      : [v.label === 'sDAI' ? 'Savings Dai' : `Staked ${asset.symbol}`, v.label];
    return { ...v, asset, name, symbol };
  });
  placements.push(
    ...(await placeBySetCode(
      ctx,
      vaults.map((v) => ({
        what: `${v.slug} ${v.label}`,
        real: v.address,
        artifact: loadArtifact('TestVault'),
        args: [v.asset.address, v.name, v.symbol, ctx.deployer],
        gas: 4_000_000n,
      })),
    )),
  );
  const seeded = vaults.filter((v) => SEEDED_AS[v.label] && VAULTS.some((s) => s.symbol === SEEDED_AS[v.label]));
  // `symbol` here is the seeder's key (its yield and deposit table), not the on-chain symbol.
  const list = seeded.map((v) => ({
    address: v.address,
    name: v.name,
    symbol: SEEDED_AS[v.label]!,
    decimals: v.asset.decimals,
    asset: v.asset.address,
    assetSymbol: v.asset.symbol,
  }));
  return {
    slug: VAULTS_PLATFORM.slug,
    name: VAULTS_PLATFORM.name,
    family: 'erc4626',
    addresses: { vaults: list.map((v) => v.address) },
    pools: [],
    vaults: list,
    markets: [],
  };
}

/**
 * Uniswap V4's PoolManager and the UniversalRouter (2.0's role in the registry) at their real
 * addresses, deployed at scratch addresses and copied: the PoolManager's NoDelegateCall immutable
 * (`original = address(this)`) rewritten to the real address. Placed so the addresses hold code
 * (the indexer's preflight checks them); the profile seeds no V4 pool and its manifest names no V4
 * platform (the devnet's V4 pools and history are the default profile's).
 */
export async function placeV4(ctx: BuildContext, book: RealBook, weth: string, placements: Placement[]): Promise<void> {
  const real = (r: string): string => book.address('uniswap-v4', r);
  const poolManager = real('poolManager');
  const params = {
    permit2: ZERO_ADDRESS,
    weth9: weth,
    v2Factory: book.address('uniswap-v2', 'factory'),
    v3Factory: book.address('uniswap-v3', 'factory'),
    pairInitCodeHash: UNISWAP_V2_PAIR_INIT_CODE_HASH,
    poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
    v4PoolManager: poolManager,
    v3NFTPositionManager: book.address('uniswap-v3', 'positionManager'),
    v4PositionManager: ZERO_ADDRESS,
    spokePool: ZERO_ADDRESS,
  };
  placements.push(
    ...(await placeBySetCode(ctx, [
      {
        what: 'uniswap-v4 poolManager',
        real: poolManager,
        artifact: loadUniswapV4Artifact('PoolManager'),
        args: [ctx.deployer],
        gas: 7_000_000n,
        rewriteSelf: true,
      },
      {
        what: 'uniswap-v4 universalRouter',
        real: real('universalRouter'),
        artifact: loadUniversalRouterArtifact(),
        args: [params],
        gas: 8_000_000n,
      },
    ])),
  );
}
