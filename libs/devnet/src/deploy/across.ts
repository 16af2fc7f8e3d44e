/**
 * Across (intent bridge) on each devnet network, from `@across-protocol/contracts`' own compiled
 * artifacts (AGPL dev dependency; read as JSON files, never through the package's JS entry point,
 * which loads Solana and ethers v5): the network's chain-specific SpokePool implementation behind an
 * ERC1967Proxy, initialised in the proxy's constructor as Across deploys it, plus the
 * MulticallHandler (the recipient of deposits that carry instructions).
 *
 * Which SpokePool: Ethereum_SpokePool on ethereum, Arbitrum_SpokePool on arbitrum, OP_SpokePool on
 * base (the package ships no Base_SpokePool: Base, an OP-stack chain, runs OP_SpokePool, whose
 * admin check goes through the L2CrossDomainMessenger predeploy).
 *
 * The HubPool does not exist on the devnet: its address (the SpokePools' cross-domain admin and
 * withdrawal recipient) is ethereum's deployer account, and tooling plays the messages it would send
 * (see `libs/devnet/src/across/admin.ts`): on ethereum the owner calls the pool directly, on
 * arbitrum the L1-to-L2 alias of the admin does, on base the messenger predeploy does, and the
 * minimal contract installed there answers `xDomainMessageSender()` with the admin.
 *
 * Deployed after the bridge, in a block of its own, so no earlier contract address moves.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Interface, type InterfaceAbi, ZeroAddress, getAddress } from 'ethers';
import type { Network } from '@tokensvc/domain';
import { deployerFor } from '../accounts';
import { readOne } from '../chain/reader';
import { type BuildContext, mineNext } from './context';

export const ACROSS_PACKAGE = '@across-protocol/contracts';

/** Across's own deployment constants (`dist/src/consts.js` of the package: QUOTE_TIME_BUFFER, FILL_DEADLINE_BUFFER). */
export const ACROSS_DEPOSIT_QUOTE_TIME_BUFFER = 3600;
export const ACROSS_FILL_DEADLINE_BUFFER = 6 * 3600;
/** Across passes 0 unless a SpokePool is redeployed (relay hash collisions with the old one). */
export const ACROSS_INITIAL_DEPOSIT_ID = 0;
/** OP-stack L2CrossDomainMessenger predeploy (Lib_PredeployAddresses.L2_CROSS_DOMAIN_MESSENGER). */
export const OP_L2_MESSENGER = '0x4200000000000000000000000000000000000007';
/** Arbitrum One's L2 gateway router: only called when a refund leaf returns tokens to the HubPool (never on the devnet). */
export const ARBITRUM_L2_GATEWAY_ROUTER = '0x5288c571Fd7aD117beA99bF60FE0846C4E84F933';

export type AcrossSpokePoolName = 'Ethereum_SpokePool' | 'Arbitrum_SpokePool' | 'OP_SpokePool';
export type AcrossContractName = AcrossSpokePoolName | 'ERC1967Proxy' | 'MulticallHandler';

/** Which SpokePool implementation Across runs on each devnet network. */
export const ACROSS_SPOKE_POOL: Partial<Record<Network, AcrossSpokePoolName>> = {
  ethereum: 'Ethereum_SpokePool',
  arbitrum: 'Arbitrum_SpokePool',
  base: 'OP_SpokePool',
};

export interface AcrossArtifact {
  abi: InterfaceAbi;
  bytecode: string;
}

const requireHere = createRequire(__filename);
let packageDirCache: string | undefined;

/**
 * The package's directory. Resolved from its entry point (resolving does not load it) and walked up
 * to the package.json that names it: `require.resolve('<pkg>/package.json')` would break as soon as
 * the package declares `exports` without it (5.0.27 declares none, but the walk does not care).
 */
export function acrossPackageDir(): string {
  if (packageDirCache) return packageDirCache;
  let dir = dirname(requireHere.resolve(ACROSS_PACKAGE));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === ACROSS_PACKAGE)
      return (packageDirCache = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the package.json of ${ACROSS_PACKAGE}`);
    dir = up;
  }
}

const artifacts = new Map<string, AcrossArtifact>();

/** `dist/evm/artifacts/<Name>.sol/<Name>.json` (Foundry output: abi and unlinked-free bytecode). */
export function loadAcrossArtifact(name: AcrossContractName): AcrossArtifact {
  const hit = artifacts.get(name);
  if (hit) return hit;
  const json = JSON.parse(readFileSync(join(acrossPackageDir(), 'dist', 'evm', 'artifacts', `${name}.sol`, `${name}.json`), 'utf8')) as {
    abi: InterfaceAbi;
    bytecode: string | { object: string };
  };
  const bytecode = typeof json.bytecode === 'string' ? json.bytecode : json.bytecode.object;
  if (bytecode.includes('__$')) throw new Error(`${name} needs library linking, which the devnet does not do`);
  const artifact = { abi: json.abi, bytecode: bytecode.startsWith('0x') ? bytecode : `0x${bytecode}` };
  artifacts.set(name, artifact);
  return artifact;
}

/**
 * Where the HubPool would be: ethereum's deployer, the SpokePools' cross-domain admin and withdrawal
 * recipient on every network (an unlocked anvil account, so tooling can act as the HubPool).
 */
export function acrossHubPool(): string {
  return deployerFor('ethereum');
}

export interface AcrossContracts {
  /** Across SpokePool (ERC1967Proxy over the network's chain-specific implementation) */
  acrossSpokePool: string;
  /** Across MulticallHandler: runs a deposit message's calls on the destination */
  acrossMulticallHandler: string;
}

/**
 * Runtime code of the stand-in L2CrossDomainMessenger: answers every call (so
 * `xDomainMessageSender()`) with `admin` as one 32-byte word.
 * PUSH32 admin, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN.
 */
export function messengerStubCode(admin: string): string {
  return `0x7f${getAddress(admin).slice(2).toLowerCase().padStart(64, '0')}60005260206000f3`;
}

export interface AcrossSpokePoolPlan {
  /** the network's chain-specific implementation */
  name: AcrossSpokePoolName;
  /** the cross-domain admin and withdrawal recipient (the HubPool's address) */
  admin: string;
  weth: string;
  /** the implementation's constructor arguments */
  implementationArgs: unknown[];
  /** the ERC1967Proxy's constructor arguments: the implementation and its `initialize` call, as Across deploys it */
  proxyArgs(implementation: string): unknown[];
}

/**
 * How Across deploys its SpokePool on `network`, with `weth` as the wrapped native token and
 * `hubPool` as the L1 address the pool takes as cross-domain admin and withdrawal recipient.
 * No CCTP (USDC messenger zero disables it), no OFT, no V5 Gateway (zero disables V5 fills):
 * deposits, fills and refund leaves with amountToReturn 0 never reach them.
 */
export function acrossSpokePoolPlan(network: Network, weth: string, hubPool: string): AcrossSpokePoolPlan {
  const name = ACROSS_SPOKE_POOL[network];
  if (!name) throw new Error(`no Across SpokePool is chosen for ${network}`);
  const admin = getAddress(hubPool);
  const [implementationArgs, initArgs]: [unknown[], unknown[]] =
    name === 'Ethereum_SpokePool'
      ? [
          [weth, ACROSS_DEPOSIT_QUOTE_TIME_BUFFER, ACROSS_FILL_DEADLINE_BUFFER, ZeroAddress],
          [ACROSS_INITIAL_DEPOSIT_ID, admin],
        ]
      : name === 'Arbitrum_SpokePool'
        ? [
            [weth, ACROSS_DEPOSIT_QUOTE_TIME_BUFFER, ACROSS_FILL_DEADLINE_BUFFER, ZeroAddress, ZeroAddress, 0, 0, ZeroAddress],
            [ACROSS_INITIAL_DEPOSIT_ID, ARBITRUM_L2_GATEWAY_ROUTER, admin, admin],
          ]
        : [
            [weth, ACROSS_DEPOSIT_QUOTE_TIME_BUFFER, ACROSS_FILL_DEADLINE_BUFFER, ZeroAddress, ZeroAddress, ZeroAddress],
            [ACROSS_INITIAL_DEPOSIT_ID, admin, admin],
          ];
  const initData = new Interface(loadAcrossArtifact(name).abi).encodeFunctionData('initialize', initArgs);
  return { name, admin, weth: getAddress(weth), implementationArgs, proxyArgs: (implementation) => [implementation, initData] };
}

/**
 * After the proxy is mined at `spokePool`: on base the stand-in L2CrossDomainMessenger (the admin's
 * messages arrive through it), then the pool's admin and wrapped native token checked on chain.
 */
export async function completeAcrossSpokePool(ctx: BuildContext, spokePool: string, plan: AcrossSpokePoolPlan): Promise<void> {
  if (plan.name === 'OP_SpokePool') await ctx.rpc.call('anvil_setCode', [OP_L2_MESSENGER, messengerStubCode(plan.admin)]);
  const iface = new Interface(loadAcrossArtifact(plan.name).abi);
  const read = async (fn: string) => String((await readOne(ctx.rpc, { to: spokePool, iface, fn }))[0]);
  const [onChainAdmin, onChainWeth] = [await read('crossDomainAdmin'), await read('wrappedNativeToken')];
  if (getAddress(onChainAdmin) !== plan.admin || getAddress(onChainWeth) !== plan.weth) {
    throw new Error(
      `Across ${plan.name} at ${spokePool} reports admin ${onChainAdmin} and wrapped native ${onChainWeth}, expected ${plan.admin} and ${plan.weth}`,
    );
  }
}

/**
 * `hubPool`: the L1 address the SpokePools take as cross-domain admin and withdrawal recipient (on
 * ethereum the pool's owner is the deployer, as Across's deployer owns it until handed over).
 */
export async function deployAcrossContracts(ctx: BuildContext, weth: string, hubPool: string): Promise<AcrossContracts> {
  const plan = acrossSpokePoolPlan(ctx.network, weth, hubPool);
  const implementation = ctx.writer.deploy(ctx.deployer, loadAcrossArtifact(plan.name), plan.implementationArgs, plan.name, 8_000_000n);
  const acrossSpokePool = ctx.writer.deploy(
    ctx.deployer,
    loadAcrossArtifact('ERC1967Proxy'),
    plan.proxyArgs(implementation),
    `${plan.name} proxy`,
    1_000_000n,
  );
  const acrossMulticallHandler = ctx.writer.deploy(
    ctx.deployer,
    loadAcrossArtifact('MulticallHandler'),
    [],
    'MulticallHandler',
    1_500_000n,
  );
  await mineNext(ctx);
  await completeAcrossSpokePool(ctx, acrossSpokePool, plan);
  return { acrossSpokePool, acrossMulticallHandler };
}
