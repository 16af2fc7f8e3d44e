/**
 * The bench chain's contracts: four TestERC20 tokens, a Uniswap V2 factory + Router02 (published
 * artifacts) with six funded pairs, two ERC-4626 TestVaults, Multicall3, and the EventPump that
 * holds an inventory of every token and turns one transaction into hundreds of real events.
 */
import { Interface, getCreate2Address, keccak256, solidityPacked } from 'ethers';
import { MULTICALL3_ADDRESS, UNISWAP_V2_PAIR_INIT_CODE_HASH, loadArtifact, loadUniswapV2Artifact } from '@tokensvc/contracts';
import { loadPumpArtifact } from './pump-artifact';
import type { BenchRpc } from './rpc';
import { BlockWriter } from './writer';

export interface BenchToken {
  symbol: string;
  name: string;
  decimals: number;
  address: string;
  priceUsd: number;
}

export interface BenchPair {
  address: string;
  token0: string;
  token1: string;
  /** "A/B" in token0/token1 order */
  pair: string;
}

export interface BenchVault {
  address: string;
  name: string;
  symbol: string;
  asset: string;
  assetSymbol: string;
  decimals: number;
}

export interface BenchWorld {
  chainId: number;
  deployer: string;
  tokens: BenchToken[];
  factory: string;
  router: string;
  pairs: BenchPair[];
  vaults: BenchVault[];
  pump: string;
  /** first block with bench contracts */
  deployBlock: number;
  deployTimestamp: number;
}

/** anvil's default account 0 (unlocked: the generator sends as it without signing). */
export const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
export const BLOCK_SECONDS = 12;

const TOKENS = [
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, priceUsd: 1 },
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, priceUsd: 3000 },
  { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, priceUsd: 60000 },
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, priceUsd: 1 },
] as const;
const PAIRS = [
  ['WETH', 'USDC'],
  ['WBTC', 'USDC'],
  ['DAI', 'USDC'],
  ['WBTC', 'WETH'],
  ['WETH', 'DAI'],
  ['WBTC', 'DAI'],
] as const;
const VAULT_ASSETS = ['USDC', 'WETH'] as const;
/** USD depth per side of every pair */
const PAIR_SIDE_USD = 10_000_000;
/** synthetic recipients of transfers and withdrawals */
export const HOLDERS = 20_000;

const erc20 = new Interface(loadArtifact('TestERC20').abi);
const factoryIface = new Interface(loadUniswapV2Artifact('UniswapV2Factory').abi);
const pairIface = new Interface(loadUniswapV2Artifact('UniswapV2Pair').abi);

function units(usd: number, t: BenchToken): bigint {
  return (BigInt(Math.round((usd / t.priceUsd) * 1e6)) * 10n ** BigInt(t.decimals)) / 1_000_000n;
}

function bySymbol(tokens: readonly BenchToken[], symbol: string): BenchToken {
  const t = tokens.find((x) => x.symbol === symbol);
  if (!t) throw new Error(`no bench token ${symbol}`);
  return t;
}

function pairAddress(factory: string, a: string, b: string): string {
  const [t0, t1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
  return getCreate2Address(
    factory,
    keccak256(solidityPacked(['address', 'address'], [t0, t1])),
    UNISWAP_V2_PAIR_INIT_CODE_HASH,
  ).toLowerCase();
}

/** Deploys and funds everything in three blocks starting at `timestamp`. */
export async function deployWorld(rpc: BenchRpc, chainId: number, timestamp: number): Promise<{ world: BenchWorld; timestamp: number }> {
  const w = new BlockWriter(rpc, DEPLOYER);
  await w.syncNonce();
  await rpc.call('anvil_setCode', [MULTICALL3_ADDRESS, loadArtifact('Multicall3').deployedBytecode]);

  const testErc20 = loadArtifact('TestERC20');
  const tokens: BenchToken[] = TOKENS.map((t) => ({
    ...t,
    address: w.deploy(testErc20, [t.name, t.symbol, t.decimals, DEPLOYER], t.symbol, 3_000_000n).toLowerCase(),
  }));
  const factory = w.deploy(loadUniswapV2Artifact('UniswapV2Factory'), [DEPLOYER], 'factory', 5_000_000n).toLowerCase();
  const router = w
    .deploy(loadUniswapV2Artifact('UniswapV2Router02'), [factory, bySymbol(tokens, 'WETH').address], 'router', 6_000_000n)
    .toLowerCase();
  const vaults: BenchVault[] = VAULT_ASSETS.map((symbol) => {
    const asset = bySymbol(tokens, symbol);
    const name = `Bench ${symbol} Vault`;
    const address = w.deploy(loadArtifact('TestVault'), [asset.address, name, `bv${symbol}`, DEPLOYER], name, 4_000_000n).toLowerCase();
    return { address, name, symbol: `bv${symbol}`, asset: asset.address, assetSymbol: symbol, decimals: asset.decimals };
  });
  const deployBlock = await w.mine(timestamp);

  const pairs: BenchPair[] = PAIRS.map(([a, b]) => {
    const [x, y] = [bySymbol(tokens, a), bySymbol(tokens, b)];
    const [t0, t1] = x.address < y.address ? [x, y] : [y, x];
    w.call(factory, factoryIface, 'createPair', [t0.address, t1.address], 3_000_000n, `createPair ${a}/${b}`);
    return {
      address: pairAddress(factory, t0.address, t1.address),
      token0: t0.address,
      token1: t1.address,
      pair: `${t0.symbol}/${t1.symbol}`,
    };
  });
  const pump = w
    .deploy(
      loadPumpArtifact(),
      [tokens.map((t) => t.address), pairs.map((p) => p.address), vaults.map((v) => v.address), HOLDERS],
      'EventPump',
      3_000_000n,
    )
    .toLowerCase();
  for (const t of tokens) w.call(t.address, erc20, 'mint', [pump, units(1e15, t)], 200_000n, `mint ${t.symbol} to pump`);
  for (const p of pairs) {
    for (const addr of [p.token0, p.token1]) {
      const t = tokens.find((x) => x.address === addr)!;
      w.call(addr, erc20, 'mint', [p.address, units(PAIR_SIDE_USD, t)], 200_000n, `fund ${p.pair}`);
    }
  }
  await w.mine(timestamp + BLOCK_SECONDS);
  for (const p of pairs) w.call(p.address, pairIface, 'mint', [DEPLOYER], 500_000n, `mint LP ${p.pair}`);
  await w.mine(timestamp + 2 * BLOCK_SECONDS);
  return {
    world: { chainId, deployer: DEPLOYER, tokens, factory, router, pairs, vaults, pump, deployBlock, deployTimestamp: timestamp },
    timestamp: timestamp + 2 * BLOCK_SECONDS,
  };
}
