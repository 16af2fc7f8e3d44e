import { ContractFactory, Interface, type Log, type Result, type Signer } from 'ethers';
import { loadArtifact } from '../local-artifacts';
import { executorInterface, routerInterface } from './abi';
import type { ExecutorCall, MultiRouterOrder, PermitParams, RouterOrder, SignedRouterOrder } from './types';

export interface DeployedRouter {
  router: string;
  /** created by the Router's constructor; users never approve it */
  executor: string;
}

/**
 * Deploys a Router (which deploys its Executor) with a plain CREATE (tests, devnet). It takes no
 * constructor argument: nothing in it is chain-specific (routes wrap and unwrap native themselves).
 */
export async function deployRouter(deployer: Signer): Promise<DeployedRouter> {
  const artifact = loadArtifact('Router');
  const factory = new ContractFactory(artifact.abi, artifact.bytecode, deployer);
  const contract = await factory.deploy();
  await contract.waitForDeployment();
  const router = await contract.getAddress();
  const executor = (await contract.getFunction('executor').staticCall()) as string;
  return { router, executor };
}

/**
 * Byte offset of `order.inputAmount` in `execute` calldata: the selector, then the Order struct
 * inline (all its fields are static) starting with inputToken. A caller that only knows its amount
 * when it runs (Across's MulticallHandler, `makeCallWithBalance`) writes it there.
 */
export const EXECUTE_INPUT_AMOUNT_OFFSET = 4 + 32;

export function encodeExecute(order: RouterOrder, calls: readonly ExecutorCall[]): string {
  return routerInterface().encodeFunctionData('execute', [order, calls]);
}

/**
 * The executor calls of a Router transaction (every entry point takes them as its last argument),
 * as built: a stored order keeps its transaction and reads its calls back from it rather than
 * storing them twice (issue 30).
 */
export function decodeOrderCalls(data: string): ExecutorCall[] {
  const tx = routerInterface().parseTransaction({ data });
  if (!tx) throw new Error('not a Router transaction: its selector names no Router function');
  const calls = tx.args[tx.args.length - 1] as Result;
  return [...calls].map((c: Result) => ({
    target: String(c[0]).toLowerCase(),
    value: BigInt(c[1] as bigint),
    data: String(c[2]),
    inputs: [...(c[3] as Result)].map((i: Result) => ({
      token: String(i[0]).toLowerCase(),
      bps: Number(i[1]),
      amount: BigInt(i[2] as bigint),
      offset: Number(i[3]),
      approve: Boolean(i[4]),
    })),
  }));
}

export function encodeExecuteWithPermit(order: RouterOrder, permit: PermitParams, calls: readonly ExecutorCall[]): string {
  return routerInterface().encodeFunctionData('executeWithPermit', [order, permit, calls]);
}

/** A cross-chain origin leg: `order.recipient` is the bridge the calls deposit into, `order.outputToken` the bridged asset. */
export function encodeExecuteBridge(order: RouterOrder, calls: readonly ExecutorCall[]): string {
  return routerInterface().encodeFunctionData('executeBridge', [order, calls]);
}

/** A multi-input order paid by approvals (and msg.value for a native input). */
export function encodeExecuteMulti(order: MultiRouterOrder, calls: readonly ExecutorCall[]): string {
  return routerInterface().encodeFunctionData('executeMulti', [order, calls]);
}

/** A multi-input order with one permit per input (`v: 0` where the input is approved instead). */
export function encodeExecuteMultiWithPermits(
  order: MultiRouterOrder,
  permits: readonly PermitParams[],
  calls: readonly ExecutorCall[],
): string {
  return routerInterface().encodeFunctionData('executeMultiWithPermits', [order, permits, calls]);
}

/** The "no permit for this input" entry of executeMultiWithPermits. */
export const NO_PERMIT: PermitParams = { value: 0n, deadline: 0n, v: 0, r: `0x${'0'.repeat(64)}`, s: `0x${'0'.repeat(64)}` };

export function encodeExecuteSignedOrder(order: SignedRouterOrder, signature: string, calls: readonly ExecutorCall[]): string {
  return routerInterface().encodeFunctionData('executeSignedOrder', [order, signature, calls]);
}

/** The `name` events emitted by `router` among `logs`, decoded. */
function routerEvents(
  logs: readonly Pick<Log, 'address' | 'topics' | 'data'>[],
  router: string,
  name: 'OrderExecuted' | 'MultiOrderExecuted',
): Result[] {
  const iface = routerInterface();
  const topic = iface.getEvent(name)!.topicHash;
  return logs
    .filter((l) => l.address.toLowerCase() === router.toLowerCase() && l.topics[0] === topic)
    .map((l) => iface.decodeEventLog(name, l.data, l.topics));
}

export interface OrderExecutedEvent {
  sender: string;
  inputToken: string;
  inputAmount: bigint;
  outputToken: string;
  outputAmount: bigint;
  recipient: string;
  fee: bigint;
  routeHash: string;
}

/** OrderExecuted events emitted by `router` among `logs` (e.g. a receipt's). */
export function parseOrderExecuted(logs: readonly Pick<Log, 'address' | 'topics' | 'data'>[], router: string): OrderExecutedEvent[] {
  return routerEvents(logs, router, 'OrderExecuted').map((e) => ({
    sender: e.getValue('sender') as string,
    inputToken: e.getValue('inputToken') as string,
    inputAmount: e.getValue('inputAmount') as bigint,
    outputToken: e.getValue('outputToken') as string,
    outputAmount: e.getValue('outputAmount') as bigint,
    recipient: e.getValue('recipient') as string,
    fee: e.getValue('fee') as bigint,
    routeHash: e.getValue('routeHash') as string,
  }));
}

export interface MultiOrderExecutedEvent {
  sender: string;
  inputTokens: string[];
  inputAmounts: bigint[];
  outputToken: string;
  outputAmount: bigint;
  recipient: string;
  routeHash: string;
}

/** MultiOrderExecuted events emitted by `router` among `logs`. */
export function parseMultiOrderExecuted(
  logs: readonly Pick<Log, 'address' | 'topics' | 'data'>[],
  router: string,
): MultiOrderExecutedEvent[] {
  return routerEvents(logs, router, 'MultiOrderExecuted').map((e) => ({
    sender: e.getValue('sender') as string,
    inputTokens: [...(e.getValue('inputTokens') as string[])],
    inputAmounts: [...(e.getValue('inputAmounts') as bigint[])],
    outputToken: e.getValue('outputToken') as string,
    outputAmount: e.getValue('outputAmount') as bigint,
    recipient: e.getValue('recipient') as string,
    routeHash: e.getValue('routeHash') as string,
  }));
}

export interface DecodedRouterError {
  name: string;
  args: unknown[];
  /** for Executor.CallFailed: what the failing call target reverted with, decoded when known */
  inner?: DecodedRouterError;
}

/** Errors a route's call targets commonly revert with (OpenZeppelin 5 tokens and guards). */
const STANDARD_ERRORS = new Interface([
  'error Error(string)',
  'error ReentrancyGuardReentrantCall()',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error SafeERC20FailedOperation(address token)',
]);

function tryParse(iface: Interface, data: string): DecodedRouterError | undefined {
  try {
    const parsed = iface.parseError(data);
    return parsed ? { name: parsed.name, args: [...parsed.args] as unknown[] } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Decodes revert data of a Router transaction, following Executor.CallFailed into the reason of
 * the failing call. Returns undefined for data no known ABI matches.
 */
export function decodeRouterError(data: string): DecodedRouterError | undefined {
  for (const iface of [routerInterface(), executorInterface(), STANDARD_ERRORS]) {
    const decoded = tryParse(iface, data);
    if (!decoded) continue;
    if (decoded.name === 'CallFailed') decoded.inner = decodeRouterError(decoded.args[1] as string);
    return decoded;
  }
  return undefined;
}
