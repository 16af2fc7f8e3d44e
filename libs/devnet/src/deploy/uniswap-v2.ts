import { keccak256, solidityPacked, getCreate2Address } from 'ethers';
import { UNISWAP_V2_PAIR_INIT_CODE_HASH, loadUniswapV2Artifact } from '@tokensvc/contracts';
import { ABI } from '../chain/abis';
import type { V2PlatformSpec } from '../config';
import type { ManifestPlatform, ManifestPool, ManifestToken } from '../manifest';
import { sortTokens } from '../math/uniswap';
import { type BuildContext, tokenBySymbol } from './context';

export function v2PairAddress(factory: string, a: string, b: string): string {
  const [t0, t1] = sortTokens({ address: a }, { address: b });
  return getCreate2Address(factory, keccak256(solidityPacked(['address', 'address'], [t0.address, t1.address])), UNISWAP_V2_PAIR_INIT_CODE_HASH);
}

/**
 * A V2-family platform is a factory + Router02 from the published Uniswap build; a fork such as
 * SushiSwap differs only by its own factory. Pairs are created here and funded by the seeder.
 */
export function deployV2Platform(ctx: BuildContext, spec: V2PlatformSpec, tokens: readonly ManifestToken[], resolve: (symbol: string) => string): ManifestPlatform {
  const { writer, deployer } = ctx;
  const weth = tokenBySymbol(tokens, 'WETH').address;
  const factory = writer.deploy(deployer, loadUniswapV2Artifact('UniswapV2Factory'), [deployer], `${spec.slug} factory`, 3_500_000n);
  const router = writer.deploy(deployer, loadUniswapV2Artifact('UniswapV2Router02'), [factory, weth], `${spec.slug} router`, 5_000_000n);
  const pools: ManifestPool[] = spec.pools.map((p) => {
    const [t0, t1] = sortTokens(tokenBySymbol(tokens, resolve(p.a)), tokenBySymbol(tokens, resolve(p.b)));
    writer.call(deployer, factory, ABI.v2Factory(), 'createPair', [t0.address, t1.address], { gas: 3_000_000n, label: `${spec.slug} createPair ${t0.symbol}/${t1.symbol}` });
    return { address: v2PairAddress(factory, t0.address, t1.address), pair: `${t0.symbol}/${t1.symbol}`, token0: t0.address, token1: t1.address, fee: 3000 };
  });
  return { slug: spec.slug, name: spec.name, family: 'uniswap-v2', addresses: { factory, router }, pools, vaults: [], markets: [] };
}
