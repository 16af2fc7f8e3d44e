/**
 * Loaders for the audited artifacts shipped on npm. Using the published bytecode (not a recompile)
 * matters: the Uniswap periphery hard-codes the pair/pool init code hashes of exactly these builds.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { keccak256 } from 'ethers';
import { type Artifact, type LinkReferences, with0x } from './artifact';
import { packageRoot } from './paths';

export type UniswapV2ContractName = 'UniswapV2Factory' | 'UniswapV2Pair' | 'UniswapV2Router02' | 'UniswapV2Router01' | 'WETH9';
export type UniswapV3ContractName =
  | 'UniswapV3Factory'
  | 'UniswapV3Pool'
  | 'NonfungiblePositionManager'
  | 'NonfungibleTokenPositionDescriptor'
  | 'SwapRouter'
  | 'QuoterV2'
  | 'Quoter'
  | 'TickLens'
  | 'UniswapInterfaceMulticall'
  | 'V3Migrator';

/** Init code hashes the published periphery contracts expect; checked when the artifacts load. */
export const UNISWAP_V2_PAIR_INIT_CODE_HASH = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f';
export const UNISWAP_V3_POOL_INIT_CODE_HASH = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54';

const cache = new Map<string, Artifact>();

function cached(key: string, load: () => Artifact): Artifact {
  let artifact = cache.get(key);
  if (!artifact) {
    artifact = load();
    cache.set(key, artifact);
  }
  return artifact;
}

interface TruffleLikeJson {
  abi: Artifact['abi'];
  evm: { bytecode: { object: string; linkReferences?: LinkReferences }; deployedBytecode: { object: string } };
}

interface HardhatJson {
  contractName: string;
  abi: Artifact['abi'];
  bytecode: string;
  deployedBytecode: string;
  linkReferences?: LinkReferences;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

function fromHardhat(file: string): Artifact {
  const json = readJson<HardhatJson>(file);
  return {
    contractName: json.contractName,
    abi: json.abi,
    bytecode: with0x(json.bytecode),
    deployedBytecode: with0x(json.deployedBytecode),
    linkReferences: json.linkReferences ?? {},
  };
}

/** Uniswap V2 (waffle build JSON) including WETH9 from v2-periphery. */
export function loadUniswapV2Artifact(name: UniswapV2ContractName): Artifact {
  return cached(`v2:${name}`, () => {
    const pkg = name === 'UniswapV2Factory' || name === 'UniswapV2Pair' ? '@uniswap/v2-core' : '@uniswap/v2-periphery';
    const json = readJson<TruffleLikeJson>(join(packageRoot(pkg), 'build', `${name}.json`));
    const artifact: Artifact = {
      contractName: name,
      abi: json.abi,
      bytecode: with0x(json.evm.bytecode.object),
      deployedBytecode: with0x(json.evm.deployedBytecode.object),
      linkReferences: json.evm.bytecode.linkReferences ?? {},
    };
    if (name === 'UniswapV2Pair' && keccak256(artifact.bytecode) !== UNISWAP_V2_PAIR_INIT_CODE_HASH) {
      throw new Error('installed @uniswap/v2-core pair bytecode does not match the router init code hash');
    }
    return artifact;
  });
}

export function loadWeth9Artifact(): Artifact {
  return loadUniswapV2Artifact('WETH9');
}

const V3_LOCATIONS: Record<UniswapV3ContractName, [pkg: string, dir: string]> = {
  UniswapV3Factory: ['@uniswap/v3-core', 'contracts'],
  UniswapV3Pool: ['@uniswap/v3-core', 'contracts'],
  NonfungiblePositionManager: ['@uniswap/v3-periphery', 'contracts'],
  NonfungibleTokenPositionDescriptor: ['@uniswap/v3-periphery', 'contracts'],
  SwapRouter: ['@uniswap/v3-periphery', 'contracts'],
  V3Migrator: ['@uniswap/v3-periphery', 'contracts'],
  QuoterV2: ['@uniswap/v3-periphery', 'contracts/lens'],
  Quoter: ['@uniswap/v3-periphery', 'contracts/lens'],
  TickLens: ['@uniswap/v3-periphery', 'contracts/lens'],
  UniswapInterfaceMulticall: ['@uniswap/v3-periphery', 'contracts/lens'],
};

export function loadUniswapV3Artifact(name: UniswapV3ContractName): Artifact {
  return cached(`v3:${name}`, () => {
    const [pkg, dir] = V3_LOCATIONS[name];
    const artifact = fromHardhat(join(packageRoot(pkg), 'artifacts', dir, `${name}.sol`, `${name}.json`));
    if (name === 'UniswapV3Pool' && keccak256(artifact.bytecode) !== UNISWAP_V3_POOL_INIT_CODE_HASH) {
      throw new Error('installed @uniswap/v3-core pool bytecode does not match the periphery init code hash');
    }
    return artifact;
  });
}

/**
 * SwapRouter02 (@uniswap/swap-router-contracts 1.3.1): the V3 (and V2) router the real networks'
 * address books name (`swapRouter02`). Constructor (factoryV2, factoryV3, positionManager, WETH9);
 * it computes pair and pool addresses from the same init code hashes as the builds above.
 */
export function loadSwapRouter02Artifact(): Artifact {
  return cached('swap-router-contracts:SwapRouter02', () =>
    fromHardhat(join(packageRoot('@uniswap/swap-router-contracts'), 'artifacts', 'contracts', 'SwapRouter02.sol', 'SwapRouter02.json')),
  );
}

/** The @uniswap/v4-core 1.0.2 contracts the devnet deploys: the PoolManager, and its test routers (devnet only). */
export type UniswapV4ContractName = 'PoolManager' | 'PoolModifyLiquidityTest' | 'PoolSwapTest';

interface FoundryJson {
  abi: Artifact['abi'];
  bytecode: { object: string; linkReferences?: LinkReferences };
  deployedBytecode: { object: string };
}

/** A @uniswap/v4-core artifact (Foundry's out/<Name>.sol/<Name>.json, the published build). */
export function loadUniswapV4Artifact(name: UniswapV4ContractName): Artifact {
  return cached(`v4:${name}`, () => {
    const json = readJson<FoundryJson>(join(packageRoot('@uniswap/v4-core'), 'out', `${name}.sol`, `${name}.json`));
    const [bytecode, deployedBytecode] = [with0x(json.bytecode.object), with0x(json.deployedBytecode.object)];
    return { contractName: name, abi: json.abi, bytecode, deployedBytecode, linkReferences: json.bytecode.linkReferences ?? {} };
  });
}

/**
 * Uniswap's UniversalRouter (@uniswap/universal-router 2.1.0, the published build): the periphery
 * Uniswap V4 swaps go through. Constructor RouterParameters (permit2, weth9, v2Factory, v3Factory,
 * pairInitCodeHash, poolInitCodeHash, v4PoolManager, v3NFTPositionManager, v4PositionManager,
 * spokePool): it only stores them, so a protocol it will not be asked to use may be address(0).
 */
export function loadUniversalRouterArtifact(): Artifact {
  return cached('universal-router:UniversalRouter', () =>
    fromHardhat(join(packageRoot('@uniswap/universal-router'), 'artifacts', 'contracts', 'UniversalRouter.sol', 'UniversalRouter.json')),
  );
}

let aaveIndex: Map<string, string> | undefined;

/** Aave ships ~200 artifacts in nested folders; index them by contract name once. */
function aaveArtifactIndex(): Map<string, string> {
  if (aaveIndex) return aaveIndex;
  const index = new Map<string, string>();
  // A name can exist both as a mock and as the real contract; production folders win.
  const rank = (file: string): number => (file.includes('/mocks/') ? 2 : file.includes('/interfaces/') ? 1 : 0);
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) {
        walk(full);
      } else if (entry.endsWith('.json') && !entry.endsWith('.dbg.json')) {
        const name = entry.slice(0, -'.json'.length);
        const existing = index.get(name);
        if (existing === undefined || rank(full) < rank(existing)) index.set(name, full);
      }
    }
  };
  walk(join(packageRoot('@aave/core-v3'), 'artifacts', 'contracts'));
  aaveIndex = index;
  return index;
}

/**
 * An Aave V3 (core 1.19) artifact by contract name, e.g. 'Pool', 'PoolConfigurator', 'SupplyLogic'.
 * Pool and PoolConfigurator come unlinked: see requiredLibraries() and linkBytecode().
 */
export function loadAaveArtifact(name: string): Artifact {
  return cached(`aave:${name}`, () => {
    const file = aaveArtifactIndex().get(name);
    if (!file) throw new Error(`no Aave V3 artifact named ${name} in @aave/core-v3`);
    return fromHardhat(file);
  });
}
