import { Contract, JsonRpcProvider, Wallet, getAddress, keccak256, parseEther } from 'ethers';
import { NETWORKS } from '@tokensvc/domain';
import { loadWeth9Artifact } from '../npm-artifacts';
import { loadArtifact } from '../local-artifacts';
import { routerInterface } from './abi';
import {
  DETERMINISTIC_DEPLOYMENT_PROXY,
  RouterDeployError,
  deployRouterDeterministic,
  inspectRouterDeployment,
  planRouterDeployment,
  routerAddress,
  verifyRouterDeployment,
} from './deterministic';
import { wrapAllCall } from './calls';
import { encodeExecute, parseOrderExecuted } from './router';
import { type PrivateAnvil, startPrivateAnvil } from './testing/private-anvil';
import { NATIVE_TOKEN } from './types';

/** The canonical WETH of ethereum, and the OP-stack predeploy base and optimism share (no input of the Router's: only the order below uses WETH). */
const ETHEREUM_WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const OP_STACK_WETH = '0x4200000000000000000000000000000000000006';
/** The Router's one address (and its Executor's), on every chain: docs/real-networks.md "The Router on real networks". */
const ROUTER = '0x2e73C30b6e3fAfD322F8682029C39f66821DA9e6';
const EXECUTOR = '0x2b8C7245d6042F1C08E492FBFe10F926E4067fa8';
/** anvil's first dev account */
const DEPLOYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

interface Chain {
  anvil: PrivateAnvil;
  provider: JsonRpcProvider;
  deployer: Wallet;
}

/** A private anvil with the chain id of a real network and WETH9's code at that network's WETH address. */
async function startChain(chainId: number, weth: string): Promise<Chain> {
  const anvil = await startPrivateAnvil(chainId);
  const provider = new JsonRpcProvider(anvil.rpcUrl, chainId, { staticNetwork: true, cacheTimeout: -1 });
  await provider.send('anvil_setCode', [weth, loadWeth9Artifact().deployedBytecode]);
  return { anvil, provider, deployer: new Wallet(DEPLOYER_KEY, provider) };
}

describe('the Router through the deterministic deployment proxy (CREATE2), on anvils with the chain ids of ethereum and base', () => {
  let eth: Chain;
  let base: Chain;

  beforeAll(async () => {
    [eth, base] = await Promise.all([startChain(1, ETHEREUM_WETH), startChain(8453, OP_STACK_WETH)]);
  }, 60_000);
  afterAll(async () => {
    for (const c of [eth, base]) {
      c?.provider.destroy();
      await c?.anvil.stop();
    }
  });

  const expectRefusal = async (p: Promise<unknown>, message: RegExp): Promise<void> => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RouterDeployError);
    expect((err as Error).message).toMatch(message);
  };

  it('anvil has the proxy predeployed, as real chains do', async () => {
    expect(await eth.provider.getCode(DETERMINISTIC_DEPLOYMENT_PROXY)).not.toBe('0x');
  });

  it('predicts one address on every chain id (no chain-specific constructor argument); the runtime code differs per chain id', () => {
    const plans = NETWORKS.map((n) => planRouterDeployment(n));
    const chainIds = new Set(plans.map((p) => p.chainId));
    expect(chainIds.size).toBe(NETWORKS.length);
    for (const plan of plans) {
      expect(plan.router).toBe(routerAddress());
      expect(plan.executor).toBe(plans[0]!.executor);
      expect(plan.initCodeHash).toBe(plans[0]!.initCodeHash);
      expect(plan.proxyCalldata).toBe(plans[0]!.proxyCalldata);
    }
    // The EIP-712 domain (chain id) is cached in immutables: same address, other runtime code.
    expect(new Set(plans.map((p) => p.routerCodeHash)).size).toBe(NETWORKS.length);
    // The Executor holds no chain-specific immutable: one runtime code everywhere.
    expect(new Set(plans.map((p) => p.executorCodeHash)).size).toBe(1);
    // Pure and repeatable: the same build gives the same prediction.
    expect(planRouterDeployment('ethereum')).toEqual(plans[NETWORKS.indexOf('ethereum')]);
  });

  it('predicts the addresses docs/real-networks.md documents (the init code is reproducible: solc, settings and sources pinned)', () => {
    // Any change to router/*.sol (comments too: the metadata hash covers the sources), the
    // OpenZeppelin version, solc or its settings changes these: update docs/real-networks.md "The
    // Router on real networks" with the new address, and deploy the new Router everywhere.
    expect(routerAddress()).toBe(ROUTER);
    for (const n of ['ethereum', 'base', 'arbitrum', 'optimism'] as const) expect(planRouterDeployment(n).router).toBe(ROUTER);
    expect(planRouterDeployment('ethereum').executor).toBe(EXECUTOR);
  });

  it('deploys at the predicted address, verifies the code hash, and the Router works with the chain WETH; a second run sends nothing', async () => {
    const nonceBefore = await eth.provider.getTransactionCount(eth.deployer.address);
    const first = await deployRouterDeterministic(eth.deployer, 'ethereum');
    expect(first.status).toBe('deployed');
    expect(first.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const plan = planRouterDeployment('ethereum');
    expect(first.plan).toEqual(plan);
    expect(keccak256(await eth.provider.getCode(plan.router))).toBe(plan.routerCodeHash);
    expect(keccak256(await eth.provider.getCode(plan.executor))).toBe(plan.executorCodeHash);

    const router = new Contract(plan.router, routerInterface(), eth.provider);
    // The Router names no WETH (it has no `weth()` any more): the order's calls bring the chain's.
    expect(router.interface.getFunction('weth')).toBeNull();
    expect(getAddress((await router.getFunction('executor')()) as string)).toBe(plan.executor);
    // A native order into WETH: its one call wraps the native the Router handed to the Executor
    // through the chain's WETH, and the Executor sweeps the WETH to the recipient.
    const recipient = Wallet.createRandom().address;
    const amount = parseEther('1');
    const order = {
      inputToken: NATIVE_TOKEN,
      inputAmount: amount,
      outputToken: ETHEREUM_WETH,
      minOutputAmount: amount,
      recipient,
      partner: recipient,
      feeBps: 0,
      deadline: 2n ** 40n,
    };
    const receipt = await (
      await eth.deployer.sendTransaction({ to: plan.router, data: encodeExecute(order, [wrapAllCall(ETHEREUM_WETH)]), value: amount })
    ).wait();
    expect(parseOrderExecuted(receipt!.logs, plan.router)[0]?.outputAmount).toBe(amount);
    const weth = new Contract(ETHEREUM_WETH, loadWeth9Artifact().abi, eth.provider);
    expect(await weth.getFunction('balanceOf')(recipient)).toBe(amount);

    const second = await deployRouterDeterministic(eth.deployer, 'ethereum');
    expect(second).toEqual({ plan, status: 'already-deployed' });
    // the deployment and the order: nothing more
    expect(await eth.provider.getTransactionCount(eth.deployer.address)).toBe(nonceBefore + 2);
  });

  it('on base: the same address as on ethereum, verified for its chain id; anyone else sending the same init code only deploys the same Router', async () => {
    const plan = planRouterDeployment('base');
    expect((await inspectRouterDeployment(base.provider, 'base')).state).toBe('absent');
    // Someone else deploys first, with another account: the address holds our code all the same.
    const other = Wallet.createRandom().connect(base.provider);
    await base.provider.send('anvil_setBalance', [other.address, '0x56bc75e2d63100000']);
    const result = await deployRouterDeterministic(other, 'base');
    expect(result).toMatchObject({ status: 'deployed', plan });
    expect((await deployRouterDeterministic(base.deployer, 'base')).status).toBe('already-deployed');
    expect(await verifyRouterDeployment(base.provider, plan)).toBe('verified');
    // One address on both chains, each holding the Router with its own chain's EIP-712 domain.
    expect(plan.router).toBe(planRouterDeployment('ethereum').router);
    expect(await base.provider.getCode(plan.router)).not.toBe(await eth.provider.getCode(plan.router));
    expect(keccak256(await base.provider.getCode(plan.executor))).toBe(keccak256(await eth.provider.getCode(plan.executor)));
    // A native order on base through its WETH (the OP-stack predeploy), the same Router address.
    const recipient = Wallet.createRandom().address;
    const amount = parseEther('2');
    const order = {
      inputToken: NATIVE_TOKEN,
      inputAmount: amount,
      outputToken: OP_STACK_WETH,
      minOutputAmount: amount,
      recipient,
      partner: recipient,
      feeBps: 0,
      deadline: 2n ** 40n,
    };
    await (
      await base.deployer.sendTransaction({ to: plan.router, data: encodeExecute(order, [wrapAllCall(OP_STACK_WETH)]), value: amount })
    ).wait();
    expect(await new Contract(OP_STACK_WETH, loadWeth9Artifact().abi, base.provider).getFunction('balanceOf')(recipient)).toBe(amount);
  });

  it('refuses a node of another chain than the network named', async () => {
    await expectRefusal(
      deployRouterDeterministic(eth.deployer, 'base'),
      /RPC URL for base serves chain id 1, but base is chain id 8453: check RPC_URL_BASE/,
    );
    await expectRefusal(inspectRouterDeployment(base.provider, 'arbitrum'), /serves chain id 8453, but arbitrum is chain id 42161/);
  });

  it('refuses a chain without the deterministic deployment proxy', async () => {
    const snap = await eth.provider.send('evm_snapshot', []);
    try {
      await eth.provider.send('anvil_setCode', [DETERMINISTIC_DEPLOYMENT_PROXY, '0x']);
      await expectRefusal(
        deployRouterDeterministic(eth.deployer, 'ethereum'),
        /ethereum has no deterministic deployment proxy at 0x4e59b44847b379578588920ca78fbf26c0b4956c: deploy it first/,
      );
      await eth.provider.send('anvil_setCode', [DETERMINISTIC_DEPLOYMENT_PROXY, '0x6000']);
      await expectRefusal(deployRouterDeterministic(eth.deployer, 'ethereum'), /is not the deterministic deployment proxy/);
    } finally {
      await eth.provider.send('evm_revert', [snap]);
    }
  });

  it('refuses other code at the predicted address (verification by code hash)', async () => {
    const snap = await base.provider.send('evm_snapshot', []);
    try {
      const plan = planRouterDeployment('base');
      // The Router deployed on ethereum (its chain id's EIP-712 domain) at base's address: one immutable differs.
      const ethereumRuntime = await eth.provider.getCode(planRouterDeployment('ethereum').router);
      await base.provider.send('anvil_setCode', [plan.router, ethereumRuntime]);
      await expectRefusal(
        deployRouterDeterministic(base.deployer, 'base'),
        new RegExp(`the code at ${plan.router} has hash 0x[0-9a-f]{64}, expected ${plan.routerCodeHash}`),
      );
      await base.provider.send('anvil_setCode', [plan.router, loadArtifact('Router').deployedBytecode]);
      await expectRefusal(verifyRouterDeployment(base.provider, plan), /is not this build's Router/);
    } finally {
      await base.provider.send('evm_revert', [snap]);
    }
  });
});
