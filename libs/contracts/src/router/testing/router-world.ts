/**
 * Fixture of the router contract tests: a private anvil with WETH9, two permit-capable ERC-20s,
 * Uniswap V2 (published factory + Router02) with three funded pairs, the Router/Executor and the
 * two malicious call targets.
 */
import {
  Contract,
  ContractFactory,
  JsonRpcProvider,
  MaxUint256,
  Wallet,
  keccak256,
  parseEther,
  parseUnits,
  toBeHex,
  toUtf8Bytes,
} from 'ethers';
import type { Artifact } from '../../artifact';
import { loadArtifact } from '../../local-artifacts';
import { loadUniswapV2Artifact, loadWeth9Artifact } from '../../npm-artifacts';
import { routerInterface } from '../abi';
import { deployRouter } from '../router';
import { type PrivateAnvil, startPrivateAnvil } from './private-anvil';

export const FAR_DEADLINE = 2n ** 40n;

export interface RouterWorld {
  anvil: PrivateAnvil;
  provider: JsonRpcProvider;
  chainId: bigint;
  deployer: Wallet;
  trader: Wallet;
  relayer: Wallet;
  attacker: Wallet;
  recipient: string;
  partner: string;
  weth: Contract;
  /** 18 decimals */
  tokenA: Contract;
  /** 6 decimals */
  tokenB: Contract;
  v2Router: Contract;
  router: Contract;
  executor: string;
  reentrant: Contract;
  thief: Contract;
  /** Router02.getAmountsOut(amountIn, path) last element */
  quoteV2(amountIn: bigint, path: string[]): Promise<bigint>;
  balanceOf(token: Contract | 'native', owner: string): Promise<bigint>;
  wallet(label: string): Promise<Wallet>;
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  stop(): Promise<void>;
}

async function deploy(artifact: Artifact, deployer: Wallet, args: unknown[] = []): Promise<Contract> {
  const contract = await new ContractFactory(artifact.abi, artifact.bytecode, deployer).deploy(...args);
  await contract.waitForDeployment();
  return contract as Contract;
}

export async function startRouterWorld(): Promise<RouterWorld> {
  const anvil = await startPrivateAnvil();
  const provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  provider.pollingInterval = 20;
  const chainId = (await provider.getNetwork()).chainId;
  const wallet = async (label: string): Promise<Wallet> => {
    const w = new Wallet(keccak256(toUtf8Bytes(`router-test/${label}`)), provider);
    await provider.send('anvil_setBalance', [w.address, toBeHex(parseEther('1000000'))]);
    return w;
  };
  const [deployer, trader, relayer, attacker] = (await Promise.all(['deployer', 'trader', 'relayer', 'attacker'].map(wallet))) as [
    Wallet,
    Wallet,
    Wallet,
    Wallet,
  ];
  const recipient = Wallet.createRandom().address;
  const partner = Wallet.createRandom().address;

  const erc20 = loadArtifact('TestERC20');
  const weth = await deploy(loadWeth9Artifact(), deployer);
  const tokenA = await deploy(erc20, deployer, ['Alpha', 'ALP', 18, deployer.address]);
  const tokenB = await deploy(erc20, deployer, ['Beta', 'BET', 6, deployer.address]);
  const factory = await deploy(loadUniswapV2Artifact('UniswapV2Factory'), deployer, [deployer.address]);
  const v2Router = await deploy(loadUniswapV2Artifact('UniswapV2Router02'), deployer, [
    await factory.getAddress(),
    await weth.getAddress(),
  ]);
  const [a, b, r2] = await Promise.all([tokenA.getAddress(), tokenB.getAddress(), v2Router.getAddress()]);

  for (const [token, amount] of [
    [tokenA, parseEther('10000000')],
    [tokenB, parseUnits('100000000', 6)],
  ] as const) {
    await (await token.getFunction('mint')(deployer.address, amount)).wait();
    await (await token.getFunction('mint')(trader.address, amount / 10n)).wait();
    await (await token.getFunction('approve')(r2, MaxUint256)).wait();
  }
  // A = 2 B, WETH = 3000 B = 1500 A
  await (
    await v2Router.getFunction('addLiquidity')(a, b, parseEther('1000000'), parseUnits('2000000', 6), 0, 0, deployer.address, FAR_DEADLINE)
  ).wait();
  await (
    await v2Router.getFunction('addLiquidityETH')(b, parseUnits('3000000', 6), 0, 0, deployer.address, FAR_DEADLINE, {
      value: parseEther('1000'),
    })
  ).wait();
  await (
    await v2Router.getFunction('addLiquidityETH')(a, parseEther('300000'), 0, 0, deployer.address, FAR_DEADLINE, {
      value: parseEther('200'),
    })
  ).wait();

  const deployed = await deployRouter(deployer);
  const router = new Contract(deployed.router, routerInterface(), provider);
  const reentrant = await deploy(loadArtifact('ReentrantTarget'), deployer);
  const thief = await deploy(loadArtifact('ApprovalThief'), deployer);

  return {
    anvil,
    provider,
    chainId,
    deployer,
    trader,
    relayer,
    attacker,
    recipient,
    partner,
    weth,
    tokenA,
    tokenB,
    v2Router,
    router,
    executor: deployed.executor,
    reentrant,
    thief,
    async quoteV2(amountIn, path) {
      const amounts = (await v2Router.getFunction('getAmountsOut')(amountIn, path)) as bigint[];
      return amounts[amounts.length - 1]!;
    },
    async balanceOf(token, owner) {
      return token === 'native' ? provider.getBalance(owner) : ((await token.getFunction('balanceOf')(owner)) as bigint);
    },
    wallet,
    snapshot: () => provider.send('evm_snapshot', []) as Promise<string>,
    async revert(id) {
      await provider.send('evm_revert', [id]);
    },
    async stop() {
      provider.destroy();
      await anvil.stop();
    },
  };
}

/**
 * The hooks of a Router spec whose tests each start from the same chain: one world for the
 * `describe` (started, then handed to `onStart` for the spec's own set-up; stopped after), its
 * chain reverted to a snapshot after every test.
 */
export function eachTestOnRouterWorld(onStart: (w: RouterWorld) => Promise<void>): void {
  let world: RouterWorld | undefined;
  let snap: string;
  beforeAll(async () => {
    world = await startRouterWorld();
    await onStart(world);
  }, 60_000);
  afterAll(async () => {
    await world?.stop();
  });
  beforeEach(async () => {
    snap = await world!.snapshot();
  });
  afterEach(async () => {
    await world!.revert(snap);
  });
}
