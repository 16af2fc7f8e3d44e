import { ContractFactory, Interface, type Log, type Provider, type Signer, getAddress } from 'ethers';
import { loadArtifact } from '../local-artifacts';
import { BRIDGE_TOPICS, bridgeEscrowInterface, bridgeSettlerInterface } from './abi';
import { BRIDGE_DEPOSIT_STATUSES, type BridgeDeposit, type BridgeDepositRecord, type BridgeFill, type DeployedBridge } from './types';
import { ALL_BPS, type ExecutorCall } from '../router/types';

/**
 * Deploys both sides on the signer's network: a BridgeEscrow (owned by the signer, fills confirmed
 * by `attester`) and a BridgeSettler. Every network gets both, so it can be origin and destination.
 */
export async function deployBridge(deployer: Signer, attester: string): Promise<DeployedBridge> {
  const escrowArtifact = loadArtifact('BridgeEscrow');
  const escrow = await new ContractFactory(escrowArtifact.abi, escrowArtifact.bytecode, deployer).deploy(getAddress(attester));
  await escrow.waitForDeployment();
  const settlerArtifact = loadArtifact('BridgeSettler');
  const settler = await new ContractFactory(settlerArtifact.abi, settlerArtifact.bytecode, deployer).deploy();
  await settler.waitForDeployment();
  return { escrow: await escrow.getAddress(), settler: await settler.getAddress() };
}

/** BridgeEscrow.deposit; send `value: d.inputAmount` when `d.inputToken` is native. */
export function encodeDeposit(d: BridgeDeposit): string {
  return bridgeEscrowInterface().encodeFunctionData('deposit', [d]);
}

/**
 * Byte offset of `inputAmount` in encodeDeposit's data (the struct is static, so it sits right
 * after `inputToken`): where a Router executor call writes a balance-dependent amount.
 */
export const DEPOSIT_INPUT_AMOUNT_OFFSET = 4 + 32;

/** BridgeSettler.fill; send `value: f.outputAmount` when `f.outputToken` is native. */
export function encodeFill(f: BridgeFill): string {
  return bridgeSettlerInterface().encodeFunctionData('fill', [f]);
}

/** The fill that answers a deposit made on `originChainId` (what the filler sends to the settler). */
export function fillForDeposit(originChainId: bigint, requestId: string, d: BridgeDeposit): BridgeFill {
  return { originChainId, requestId, outputToken: d.outputToken, outputAmount: d.outputAmount, recipient: d.recipient, fillDeadline: d.fillDeadline };
}

/** BridgeEscrow.settle, sent by the attester once it saw the fill (`fillTxHash`) on the destination. */
export function encodeSettle(requestId: string, filler: string, fillTxHash: string): string {
  return bridgeEscrowInterface().encodeFunctionData('settle', [requestId, filler, fillTxHash]);
}

export function encodeRefund(requestId: string): string {
  return bridgeEscrowInterface().encodeFunctionData('refund', [requestId]);
}

export function encodeSetAttester(attester: string): string {
  return bridgeEscrowInterface().encodeFunctionData('setAttester', [attester]);
}

type LogLike = Pick<Log, 'address' | 'topics' | 'data'>;

function decodeLogs<T>(logs: readonly LogLike[], iface: Interface, contract: string, event: string, topic: string, map: (get: (key: string) => unknown) => T): T[] {
  return logs
    .filter((l) => l.address.toLowerCase() === contract.toLowerCase() && l.topics[0] === topic)
    .map((l) => {
      const e = iface.decodeEventLog(event, l.data, l.topics);
      return map((key) => e.getValue(key) as unknown);
    });
}

function toDeposit(get: (key: string) => unknown): BridgeDeposit {
  return {
    inputToken: get('inputToken') as string,
    inputAmount: get('inputAmount') as bigint,
    destinationChainId: get('destinationChainId') as bigint,
    outputToken: get('outputToken') as string,
    outputAmount: get('outputAmount') as bigint,
    recipient: get('recipient') as string,
    fillDeadline: get('fillDeadline') as bigint,
    refundTo: get('refundTo') as string,
  };
}

export interface DepositCreatedEvent extends BridgeDeposit {
  requestId: string;
  depositor: string;
}

/** DepositCreated events emitted by `escrow` among `logs` (a receipt's, or eth_getLogs results). */
export function parseDepositCreated(logs: readonly LogLike[], escrow: string): DepositCreatedEvent[] {
  return decodeLogs(logs, bridgeEscrowInterface(), escrow, 'DepositCreated', BRIDGE_TOPICS.depositCreated, (get) => ({
    requestId: get('requestId') as string,
    depositor: get('depositor') as string,
    ...toDeposit(get),
  }));
}

export interface DepositSettledEvent {
  requestId: string;
  filler: string;
  fillTxHash: string;
}

export function parseDepositSettled(logs: readonly LogLike[], escrow: string): DepositSettledEvent[] {
  return decodeLogs(logs, bridgeEscrowInterface(), escrow, 'DepositSettled', BRIDGE_TOPICS.depositSettled, (get) => ({
    requestId: get('requestId') as string,
    filler: get('filler') as string,
    fillTxHash: get('fillTxHash') as string,
  }));
}

export interface DepositRefundedEvent {
  requestId: string;
  refundTo: string;
  token: string;
  amount: bigint;
}

export function parseDepositRefunded(logs: readonly LogLike[], escrow: string): DepositRefundedEvent[] {
  return decodeLogs(logs, bridgeEscrowInterface(), escrow, 'DepositRefunded', BRIDGE_TOPICS.depositRefunded, (get) => ({
    requestId: get('requestId') as string,
    refundTo: get('refundTo') as string,
    token: get('token') as string,
    amount: get('amount') as bigint,
  }));
}

export interface FilledEvent {
  originChainId: bigint;
  requestId: string;
  filler: string;
  recipient: string;
  outputToken: string;
  outputAmount: bigint;
}

/** Filled events emitted by `settler` among `logs`. */
export function parseFilled(logs: readonly LogLike[], settler: string): FilledEvent[] {
  return decodeLogs(logs, bridgeSettlerInterface(), settler, 'Filled', BRIDGE_TOPICS.filled, (get) => ({
    originChainId: get('originChainId') as bigint,
    requestId: get('requestId') as string,
    filler: get('filler') as string,
    recipient: get('recipient') as string,
    outputToken: get('outputToken') as string,
    outputAmount: get('outputAmount') as bigint,
  }));
}

/** BridgeEscrow.deposits(requestId): the stored deposit, its depositor and state ('none' when unknown). */
export async function readDeposit(provider: Provider, escrow: string, requestId: string): Promise<BridgeDepositRecord> {
  const iface = bridgeEscrowInterface();
  const result = await provider.call({ to: escrow, data: iface.encodeFunctionData('deposits', [requestId]) });
  const [record] = iface.decodeFunctionResult('deposits', result) as unknown as [{ deposit: Record<string, unknown>; depositor: string; status: bigint }];
  const status = BRIDGE_DEPOSIT_STATUSES[Number(record.status)];
  if (!status) throw new Error(`unknown deposit status ${record.status}`);
  return { deposit: toDeposit((key) => record.deposit[key]), depositor: record.depositor, status };
}

/** BridgeSettler.filledBy: the filler of a request, or undefined when it was not filled. */
export async function readFilledBy(provider: Provider, settler: string, originChainId: bigint, requestId: string): Promise<string | undefined> {
  const iface = bridgeSettlerInterface();
  const result = await provider.call({ to: settler, data: iface.encodeFunctionData('filledBy', [originChainId, requestId]) });
  const filler = iface.decodeFunctionResult('filledBy', result)[0] as string;
  return filler === '0x0000000000000000000000000000000000000000' ? undefined : filler;
}

export interface DecodedBridgeError {
  name: string;
  args: unknown[];
}

/** Errors the bridge's token transfers and guards revert with (OpenZeppelin 5). */
const STANDARD_ERRORS = new Interface([
  'error Error(string)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error SafeERC20FailedOperation(address token)',
]);

/** Decodes revert data of a bridge transaction (either contract); undefined when no known ABI matches. */
export function decodeBridgeError(data: string): DecodedBridgeError | undefined {
  for (const iface of [bridgeEscrowInterface(), bridgeSettlerInterface(), STANDARD_ERRORS]) {
    try {
      const parsed = iface.parseError(data);
      if (parsed) return { name: parsed.name, args: [...parsed.args] as unknown[] };
    } catch {
      // not this ABI's error
    }
  }
  return undefined;
}

/**
 * The deposit as the Router executor's last call of a cross-chain order: it deposits all the
 * executor holds of `d.inputToken` (written into the amount word at run time; approved to the escrow
 * for this call only). `d.inputAmount` is ignored.
 */
export function depositExecutorCall(escrow: string, d: BridgeDeposit): ExecutorCall {
  return {
    target: escrow,
    value: 0n,
    data: encodeDeposit({ ...d, inputAmount: 0n }),
    inputs: [{ token: d.inputToken, bps: ALL_BPS, amount: 0n, offset: DEPOSIT_INPUT_AMOUNT_OFFSET, approve: true }],
  };
}

/**
 * Any bridge's deposit transaction body (a BridgeProvider's `depositCall`: `to`, `data`,
 * `amountOffset`) as the Router executor's last call: the executor's whole balance of `inputToken`
 * is written into the 32-byte amount word at `amountOffset` and approved to `to` for this call only
 * (or `fixedAmount` of it, when given: the rest goes back to the caller with the Router's sweep).
 * ERC-20 deposits only (native input reaches the bridge wrapped: the executor sends no value).
 */
export function bridgeDepositExecutorCall(call: { to: string; data: string; amountOffset: number }, inputToken: string, fixedAmount?: bigint): ExecutorCall {
  const input = fixedAmount === undefined ? { bps: ALL_BPS, amount: 0n } : { bps: 0, amount: fixedAmount };
  return { target: call.to, value: 0n, data: call.data, inputs: [{ token: inputToken, ...input, offset: call.amountOffset, approve: true }] };
}
