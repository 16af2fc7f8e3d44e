/** ethers Interfaces of every contract the devnet talks to, built once from the artifacts. */
import { Interface } from 'ethers';
import { loadAaveArtifact, loadArtifact, loadUniswapV2Artifact, loadUniswapV3Artifact, loadWeth9Artifact } from '@tokensvc/contracts';

function lazy(load: () => Interface): () => Interface {
  let iface: Interface | undefined;
  return () => (iface ??= load());
}

export const ABI = {
  erc20: lazy(() => new Interface(loadArtifact('TestERC20').abi)),
  vault: lazy(() => new Interface(loadArtifact('TestVault').abi)),
  priceFeed: lazy(() => new Interface(loadArtifact('MockPriceFeed').abi)),
  multicall3: lazy(() => new Interface(loadArtifact('Multicall3').abi)),
  weth: lazy(() => new Interface(loadWeth9Artifact().abi)),
  v2Factory: lazy(() => new Interface(loadUniswapV2Artifact('UniswapV2Factory').abi)),
  v2Pair: lazy(() => new Interface(loadUniswapV2Artifact('UniswapV2Pair').abi)),
  v2Router: lazy(() => new Interface(loadUniswapV2Artifact('UniswapV2Router02').abi)),
  v3Factory: lazy(() => new Interface(loadUniswapV3Artifact('UniswapV3Factory').abi)),
  v3Pool: lazy(() => new Interface(loadUniswapV3Artifact('UniswapV3Pool').abi)),
  positionManager: lazy(() => new Interface(loadUniswapV3Artifact('NonfungiblePositionManager').abi)),
  swapRouter: lazy(() => new Interface(loadUniswapV3Artifact('SwapRouter').abi)),
  quoter: lazy(() => new Interface(loadUniswapV3Artifact('QuoterV2').abi)),
  aavePool: lazy(() => new Interface(loadAaveArtifact('Pool').abi)),
  aaveConfigurator: lazy(() => new Interface(loadAaveArtifact('PoolConfigurator').abi)),
  aaveProvider: lazy(() => new Interface(loadAaveArtifact('PoolAddressesProvider').abi)),
  aaveAcl: lazy(() => new Interface(loadAaveArtifact('ACLManager').abi)),
  aaveOracle: lazy(() => new Interface(loadAaveArtifact('AaveOracle').abi)),
  aaveDataProvider: lazy(() => new Interface(loadAaveArtifact('AaveProtocolDataProvider').abi)),
} as const;
