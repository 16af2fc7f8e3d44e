// Reads the published artifacts from node_modules (local files only, no compiler, no network).
import { keccak256 } from 'ethers';
import { linkBytecode, requiredLibraries } from './artifact';
import {
  UNISWAP_V2_PAIR_INIT_CODE_HASH,
  UNISWAP_V3_POOL_INIT_CODE_HASH,
  loadAaveArtifact,
  loadUniswapV2Artifact,
  loadUniswapV3Artifact,
  loadSwapRouter02Artifact,
  loadWeth9Artifact,
} from './npm-artifacts';

describe('npm artifacts', () => {
  it('loads Uniswap builds whose init code hashes match the periphery', () => {
    expect(keccak256(loadUniswapV2Artifact('UniswapV2Pair').bytecode)).toBe(UNISWAP_V2_PAIR_INIT_CODE_HASH);
    expect(keccak256(loadUniswapV3Artifact('UniswapV3Pool').bytecode)).toBe(UNISWAP_V3_POOL_INIT_CODE_HASH);
    for (const a of [
      loadUniswapV2Artifact('UniswapV2Router02'),
      loadUniswapV3Artifact('QuoterV2'),
      loadWeth9Artifact(),
      loadSwapRouter02Artifact(),
    ]) {
      expect(a.bytecode).toMatch(/^0x[0-9a-f]+$/);
      expect(a.deployedBytecode).toMatch(/^0x[0-9a-f]+$/);
    }
  });

  it('loads SwapRouter02 unlinked, with its (factoryV2, factoryV3, positionManager, WETH9) constructor', () => {
    const a = loadSwapRouter02Artifact();
    expect(a.contractName).toBe('SwapRouter02');
    expect(requiredLibraries(a)).toEqual([]);
    const ctor = (a.abi as ReadonlyArray<{ type: string; inputs?: Array<{ name: string }> }>).find((e) => e.type === 'constructor');
    expect(ctor?.inputs?.map((i) => i.name)).toEqual(['_factoryV2', 'factoryV3', '_positionManager', '_WETH9']);
  });

  it('links Aave Pool against its logic libraries', () => {
    const pool = loadAaveArtifact('Pool');
    const libs = requiredLibraries(pool);
    expect(libs).toEqual(['BorrowLogic', 'BridgeLogic', 'EModeLogic', 'FlashLoanLogic', 'LiquidationLogic', 'PoolLogic', 'SupplyLogic']);
    const linked = linkBytecode(pool, Object.fromEntries(libs.map((l, i) => [l, `0x${String(i + 1).padStart(40, '0')}`])));
    expect(linked).toMatch(/^0x[0-9a-f]+$/);
    expect(linked.length).toBe(pool.bytecode.length);
    expect(requiredLibraries(loadAaveArtifact('PoolConfigurator'))).toEqual(['ConfiguratorLogic']);
  });

  it('prefers production Aave contracts over mocks and fails on unknown names', () => {
    expect(loadAaveArtifact('AToken').contractName).toBe('AToken');
    expect(() => loadAaveArtifact('NoSuchContract')).toThrow(/NoSuchContract/);
  });
});
