/**
 * The Router on real networks: deployed through the deterministic deployment proxy (Arachnid's
 * CREATE2 deployer, at the same address on every chain that has it) with a fixed salt, so its
 * address is a function of its init code only. The Router's constructor takes no argument and
 * nothing in its init code is chain-specific (no WETH: routes wrap and unwrap native themselves,
 * see solidity/router/README.md), so the Router, and the Executor its constructor creates, have
 * ONE address on every chain (`routerAddress()`, printed by `npm run router -- address`). The
 * prediction, the deployment and its verification live here so that the CLI
 * (`npm run router -- deploy|address --network <name>`), the tests and the devnet share them.
 *
 * Only the runtime code differs per chain: OpenZeppelin's EIP712 caches the domain separator and
 * the chain id in immutables. Verification compares the code at the address with the compiled
 * runtime code with its immutables filled in as this chain's constructor sets them (the Executor's
 * address, the EIP-712 domain for this chain id and address), byte for byte through its keccak256;
 * the Executor the Router created is checked the same way.
 */
import {
  type Provider,
  type Signer,
  TypedDataEncoder,
  concat,
  getCreate2Address,
  getCreateAddress,
  id,
  keccak256,
  toBeHex,
  toUtf8Bytes,
  zeroPadValue,
} from 'ethers';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import type { Artifact } from '../artifact';
import { loadArtifact } from '../local-artifacts';
import { ROUTER_EIP712_NAME, ROUTER_EIP712_VERSION } from './signed-order';

/** Arachnid's deterministic deployment proxy: `salt (32 bytes) ++ init code` in, CREATE2 out. */
export const DETERMINISTIC_DEPLOYMENT_PROXY = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
/** Its runtime code (the same on every chain: it is deployed by one pre-signed transaction). */
export const DETERMINISTIC_DEPLOYMENT_PROXY_CODE =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';
/** The CREATE2 salt of every Router deployment: keccak256("tokensvc.router.v1"). */
export const ROUTER_CREATE2_SALT = id('tokensvc.router.v1');

/** After the deployment is mined, how often (and how far apart) the code is looked for. */
const CODE_ATTEMPTS = 5;
const CODE_RETRY_MS = 2_000;

export class RouterDeployError extends Error {
  override readonly name = 'RouterDeployError';
}

/** What a network's Router deployment is expected to be, computed offline. */
export interface RouterDeploymentPlan {
  network: Network;
  chainId: number;
  salt: string;
  /** salt ++ init code: the data of the transaction to the proxy */
  proxyCalldata: string;
  initCodeHash: string;
  /** checksummed */
  router: string;
  /** created by the Router's constructor (its first CREATE, nonce 1) */
  executor: string;
  /** keccak256 of the runtime code the Router and its Executor must have on this chain */
  routerCodeHash: string;
  executorCodeHash: string;
}

export interface RouterDeploymentResult {
  plan: RouterDeploymentPlan;
  /** 'deployed' by this call, or found there already (and verified) */
  status: 'deployed' | 'already-deployed';
  txHash?: string;
}

function word(hex: string): string {
  return zeroPadValue(hex, 32).slice(2);
}

/** OpenZeppelin ShortString of a string under 32 bytes: the bytes left-aligned, the length in the last byte. */
function shortString(s: string): string {
  const bytes = toUtf8Bytes(s);
  if (bytes.length > 31) throw new Error(`"${s}" is not a short string`);
  const out = new Uint8Array(32);
  out.set(bytes);
  out[31] = bytes.length;
  return Buffer.from(out).toString('hex');
}

/**
 * The runtime code an artifact's constructor leaves: `deployedBytecode` with every immutable
 * written. An immutable without a value here is an error, so a new one in the contract cannot
 * go unverified.
 */
export function fillImmutables(artifact: Artifact, values: Readonly<Record<string, string>>): string {
  const refs = artifact.immutableReferences;
  if (!refs)
    throw new Error(`${artifact.contractName}: the artifact has no immutableReferences (rebuild: npm run contracts:build -- --force)`);
  let code = artifact.deployedBytecode.slice(2);
  for (const [name, ranges] of Object.entries(refs)) {
    const value = values[name];
    if (value === undefined) throw new Error(`${artifact.contractName}: no expected value for the immutable ${name}`);
    for (const { start, length } of ranges) {
      if (length !== 32) throw new Error(`${artifact.contractName}.${name}: unexpected immutable length ${length}`);
      const at = start * 2;
      if (!/^0+$/.test(code.slice(at, at + 64)))
        throw new Error(`${artifact.contractName}.${name}: the compiled code is not zero at byte ${start}`);
      code = code.slice(0, at) + value + code.slice(at + 64);
    }
  }
  return `0x${code}`;
}

/** The Router's init code: its creation code alone (the constructor takes no argument). */
function routerInitCode(): string {
  return loadArtifact('Router').bytecode;
}

/**
 * The Router's address on every chain (checksummed): CREATE2 by the deterministic deployment
 * proxy of this build's init code with ROUTER_CREATE2_SALT. No chain id or WETH goes in.
 */
export function routerAddress(): string {
  return getCreate2Address(DETERMINISTIC_DEPLOYMENT_PROXY, ROUTER_CREATE2_SALT, keccak256(routerInitCode()));
}

/** The Router's deployment on a network: address (the same on every network), init code and the code hashes to expect there. */
export function planRouterDeployment(network: Network): RouterDeploymentPlan {
  const chainId = NETWORK_INFO[network].chainId;
  const router = loadArtifact('Router');
  const executorArtifact = loadArtifact('Executor');
  const initCode = routerInitCode();
  const initCodeHash = keccak256(initCode);
  const address = getCreate2Address(DETERMINISTIC_DEPLOYMENT_PROXY, ROUTER_CREATE2_SALT, initCodeHash);
  const executor = getCreateAddress({ from: address, nonce: 1 });
  const domain = TypedDataEncoder.hashDomain({
    name: ROUTER_EIP712_NAME,
    version: ROUTER_EIP712_VERSION,
    chainId,
    verifyingContract: address,
  });
  const routerCode = fillImmutables(router, {
    'Router.executor': word(executor),
    'EIP712._cachedDomainSeparator': domain.slice(2),
    'EIP712._cachedChainId': toBeHex(chainId, 32).slice(2),
    'EIP712._cachedThis': word(address),
    'EIP712._hashedName': id(ROUTER_EIP712_NAME).slice(2),
    'EIP712._hashedVersion': id(ROUTER_EIP712_VERSION).slice(2),
    'EIP712._name': shortString(ROUTER_EIP712_NAME),
    'EIP712._version': shortString(ROUTER_EIP712_VERSION),
  });
  const executorCode = fillImmutables(executorArtifact, { 'Executor.router': word(address) });
  return {
    network,
    chainId,
    salt: ROUTER_CREATE2_SALT,
    proxyCalldata: concat([ROUTER_CREATE2_SALT, initCode]),
    initCodeHash,
    router: address,
    executor,
    routerCodeHash: keccak256(routerCode),
    executorCodeHash: keccak256(executorCode),
  };
}

/** Refuses a node serving another chain than the network's. */
export async function checkChainId(provider: Provider, network: Network): Promise<void> {
  const actual = Number((await provider.getNetwork()).chainId);
  const expected = NETWORK_INFO[network].chainId;
  if (actual !== expected) {
    throw new RouterDeployError(
      `the RPC URL for ${network} serves chain id ${actual}, but ${network} is chain id ${expected}: check RPC_URL_${network.toUpperCase()}`,
    );
  }
}

async function checkPrerequisites(provider: Provider, plan: RouterDeploymentPlan): Promise<void> {
  const proxy = await provider.getCode(DETERMINISTIC_DEPLOYMENT_PROXY);
  if (proxy === '0x') {
    throw new RouterDeployError(
      `${plan.network} has no deterministic deployment proxy at ${DETERMINISTIC_DEPLOYMENT_PROXY}: deploy it first with its pre-signed transaction ` +
        '(https://github.com/Arachnid/deterministic-deployment-proxy), then run this again',
    );
  }
  if (proxy.toLowerCase() !== DETERMINISTIC_DEPLOYMENT_PROXY_CODE) {
    throw new RouterDeployError(
      `${plan.network}: the code at ${DETERMINISTIC_DEPLOYMENT_PROXY} is not the deterministic deployment proxy; refusing to deploy through it`,
    );
  }
}

/**
 * Whether the Router of the plan is on chain: 'absent' when its address has no code, 'verified'
 * when the Router and its Executor have exactly the expected code; anything else is an error.
 */
export async function verifyRouterDeployment(provider: Provider, plan: RouterDeploymentPlan): Promise<'absent' | 'verified'> {
  const code = await provider.getCode(plan.router);
  if (code === '0x') return 'absent';
  const hash = keccak256(code);
  if (hash !== plan.routerCodeHash) {
    throw new RouterDeployError(
      `${plan.network}: the code at ${plan.router} has hash ${hash}, expected ${plan.routerCodeHash}: it is not this build's Router for chain id ${plan.chainId}`,
    );
  }
  const executorHash = keccak256(await provider.getCode(plan.executor));
  if (executorHash !== plan.executorCodeHash) {
    throw new RouterDeployError(
      `${plan.network}: the Router's Executor ${plan.executor} has code hash ${executorHash}, expected ${plan.executorCodeHash}`,
    );
  }
  return 'verified';
}

/** Chain id and proxy checked, then the prediction and what is deployed there (nothing is sent). */
export async function inspectRouterDeployment(
  provider: Provider,
  network: Network,
): Promise<{ plan: RouterDeploymentPlan; state: 'absent' | 'verified' }> {
  await checkChainId(provider, network);
  const plan = planRouterDeployment(network);
  await checkPrerequisites(provider, plan);
  return { plan, state: await verifyRouterDeployment(provider, plan) };
}

/**
 * Deploys the network's Router through the deterministic deployment proxy unless it is there
 * already (idempotent), then verifies the code at the predicted address. Anyone may send the same
 * init code first; the address can only ever hold this code, so that is harmless.
 */
export async function deployRouterDeterministic(deployer: Signer, network: Network): Promise<RouterDeploymentResult> {
  const provider = deployer.provider;
  if (!provider) throw new Error('deployRouterDeterministic: the signer needs a provider');
  const { plan, state } = await inspectRouterDeployment(provider, network);
  if (state === 'verified') return { plan, status: 'already-deployed' };
  const tx = await deployer.sendTransaction({ to: DETERMINISTIC_DEPLOYMENT_PROXY, data: plan.proxyCalldata });
  const mined = await tx.wait().then(
    (receipt) => receipt?.status === 1,
    () => false, // ethers throws on a reverted receipt
  );
  // A revert is what the proxy does when the address is taken: someone sent the same init code first.
  // A load-balanced RPC may answer getCode from a node a block behind the receipt's: ask again.
  let after = await verifyRouterDeployment(provider, plan);
  for (let attempt = 1; after === 'absent' && attempt < CODE_ATTEMPTS; attempt++) {
    await new Promise((r) => setTimeout(r, CODE_RETRY_MS));
    after = await verifyRouterDeployment(provider, plan);
  }
  if (after !== 'verified')
    throw new RouterDeployError(
      `${network}: the deployment transaction ${tx.hash} ${mined ? 'was mined' : 'reverted'} but ${plan.router} has no code`,
    );
  return mined ? { plan, status: 'deployed', txHash: tx.hash } : { plan, status: 'already-deployed' };
}
