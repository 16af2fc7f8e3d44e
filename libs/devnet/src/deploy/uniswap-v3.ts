import { AbiCoder, getCreate2Address, keccak256 } from 'ethers';
import { UNISWAP_V3_POOL_INIT_CODE_HASH, loadSwapRouter02Artifact, loadUniswapV3Artifact } from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { ABI } from '../chain/abis';
import { V3_PLATFORM, type V3PoolSpec } from '../config';
import { type ManifestPlatform, type ManifestPool, type ManifestToken, platformAddress } from '../manifest';
import { encodeSqrtPriceX96, rawPrice, sortTokens, tickSpacingOf } from '../math/uniswap';
import { type BuildContext, tokenBySymbol } from './context';

export function v3PoolAddress(factory: string, a: string, b: string, fee: number): string {
  const [t0, t1] = sortTokens({ address: a }, { address: b });
  const salt = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [t0.address, t1.address, fee]));
  return getCreate2Address(factory, salt, UNISWAP_V3_POOL_INIT_CODE_HASH);
}

/**
 * Uniswap V3 core + periphery from the published builds. The position manager gets no token
 * descriptor (tokenURI reverts; nothing here renders NFTs). Pools are created and initialised at
 * `priceOf` (USD) so the seeder can add liquidity in the next block.
 */
export function deployV3Platform(
  ctx: BuildContext,
  specs: readonly V3PoolSpec[],
  tokens: readonly ManifestToken[],
  resolve: (symbol: string) => string,
  priceOf: (symbol: string) => number,
): ManifestPlatform {
  const { writer, deployer } = ctx;
  const weth = tokenBySymbol(tokens, 'WETH').address;
  const factory = writer.deploy(deployer, loadUniswapV3Artifact('UniswapV3Factory'), [], 'UniswapV3Factory', 7_000_000n);
  // The 0.01 % tier exists on mainnet but is not enabled in a fresh factory.
  writer.call(deployer, factory, ABI.v3Factory(), 'enableFeeAmount', [100, 1], { gas: 200_000n });
  const positionManager = writer.deploy(deployer, loadUniswapV3Artifact('NonfungiblePositionManager'), [factory, weth, ZERO_ADDRESS], 'NonfungiblePositionManager', 7_000_000n);
  const router = writer.deploy(deployer, loadUniswapV3Artifact('SwapRouter'), [factory, weth], 'SwapRouter', 5_000_000n);
  const quoter = writer.deploy(deployer, loadUniswapV3Artifact('QuoterV2'), [factory, weth], 'QuoterV2', 4_000_000n);
  const pools: ManifestPool[] = specs.map((spec) => {
    const [t0, t1] = sortTokens(tokenBySymbol(tokens, resolve(spec.a)), tokenBySymbol(tokens, resolve(spec.b)));
    const address = v3PoolAddress(factory, t0.address, t1.address, spec.fee);
    const label = `${t0.symbol}/${t1.symbol} ${spec.fee}`;
    writer.call(deployer, factory, ABI.v3Factory(), 'createPool', [t0.address, t1.address, spec.fee], { gas: 6_000_000n, label: `createPool ${label}` });
    const sqrtPriceX96 = encodeSqrtPriceX96(rawPrice(priceOf(t0.symbol), t0.decimals, priceOf(t1.symbol), t1.decimals));
    writer.call(deployer, address, ABI.v3Pool(), 'initialize', [sqrtPriceX96], { gas: 200_000n, label: `initialize ${label}` });
    return { address, pair: `${t0.symbol}/${t1.symbol}`, token0: t0.address, token1: t1.address, fee: spec.fee, tickSpacing: tickSpacingOf(spec.fee) };
  });
  return { slug: V3_PLATFORM.slug, name: V3_PLATFORM.name, family: 'uniswap-v3', addresses: { factory, positionManager, router, quoter }, pools, vaults: [], markets: [] };
}

/**
 * SwapRouter02 (@uniswap/swap-router-contracts, the published build) over the V2 factory of `v2`
 * and the V3 factory and position manager of `v3`: the V3 router the real networks' registry
 * names (`swapRouter02`). Only queued: the caller mines it with the next block. The quote keeps
 * using the original SwapRouter (`router`) on the devnet (the rule: v3RouterOf in apps/quote).
 */
export function deploySwapRouter02(ctx: BuildContext, v2: ManifestPlatform, v3: ManifestPlatform, weth: string): string {
  const args = [platformAddress(v2, 'factory'), platformAddress(v3, 'factory'), platformAddress(v3, 'positionManager'), weth];
  return ctx.writer.deploy(ctx.deployer, loadSwapRouter02Artifact(), args, 'SwapRouter02', 7_000_000n);
}
