/**
 * What the devnet's Across relayer and data worker share: the SpokePool ABI (from the package's
 * artifacts), its bytes32 addresses, the deposit record and reading deposits and fills from logs.
 * Devnet tooling only: no production app imports libs/devnet/src/across.
 */
import { Interface, JsonRpcProvider, type Log, getAddress, toBeHex, zeroPadValue } from 'ethers';
import type { Network } from '@tokensvc/domain';
import { loadAcrossArtifact } from '../deploy/across';
import type { DevnetManifest } from '../manifest';

/** Every devnet SpokePool has the base SpokePool's deposit/fill/refund interface; OP_SpokePool's ABI serves them all. */
let spokeIface: Interface | undefined;
export function spokePoolInterface(): Interface {
  return (spokeIface ??= new Interface(loadAcrossArtifact('OP_SpokePool').abi));
}

let handlerIface: Interface | undefined;
export function multicallHandlerInterface(): Interface {
  return (handlerIface ??= new Interface(loadAcrossArtifact('MulticallHandler').abi));
}

/** FillStatus in SpokePool: fillStatuses(relayHash). */
export const FILL_STATUS = { Unfilled: 0n, RequestedSlowFill: 1n, Filled: 2n } as const;

export function toBytes32(address: string): string {
  return zeroPadValue(getAddress(address), 32).toLowerCase();
}

export function fromBytes32(word: string): string {
  return getAddress(`0x${word.slice(-40)}`);
}

export interface AcrossNetwork {
  network: Network;
  chainId: number;
  rpcUrl: string;
  spokePool: string;
}

/** The networks of a devnet manifest (or the mainnet-shaped profile's) that have a SpokePool and an RPC URL. */
export function acrossNetworks(manifest: Pick<DevnetManifest, 'networks'>, rpcUrls: Partial<Record<Network, string>>): AcrossNetwork[] {
  return manifest.networks.flatMap((n) => {
    const rpcUrl = rpcUrls[n.network];
    const spokePool = n.contracts.acrossSpokePool;
    return rpcUrl && spokePool ? [{ network: n.network, chainId: n.chainId, rpcUrl, spokePool: getAddress(spokePool) }] : [];
  });
}

export function devnetProvider(url: string): JsonRpcProvider {
  // No request cache: fill statuses and balances are re-read right after transactions.
  const p = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
  p.pollingInterval = 50;
  return p;
}

/** A FundsDeposited event, with addresses as EVM addresses (bytes32 on chain). */
export interface AcrossDeposit {
  originChainId: number;
  destinationChainId: number;
  depositId: bigint;
  depositor: string;
  recipient: string;
  inputToken: string;
  outputToken: string;
  inputAmount: bigint;
  outputAmount: bigint;
  quoteTimestamp: number;
  fillDeadline: number;
  exclusivityDeadline: number;
  exclusiveRelayer: string;
  message: string;
  blockNumber: number;
  transactionHash: string;
}

export function depositKey(d: Pick<AcrossDeposit, 'originChainId' | 'depositId'>): string {
  return `${d.originChainId}:${d.depositId}`;
}

export function decodeDeposit(originChainId: number, log: Log): AcrossDeposit {
  const ev = spokePoolInterface().parseLog(log);
  if (!ev || ev.name !== 'FundsDeposited') throw new Error(`log ${log.transactionHash}#${log.index} is not FundsDeposited`);
  const a = ev.args;
  return {
    originChainId,
    destinationChainId: Number(a['destinationChainId']),
    depositId: a['depositId'] as bigint,
    depositor: fromBytes32(a['depositor'] as string),
    recipient: fromBytes32(a['recipient'] as string),
    inputToken: fromBytes32(a['inputToken'] as string),
    outputToken: fromBytes32(a['outputToken'] as string),
    inputAmount: a['inputAmount'] as bigint,
    outputAmount: a['outputAmount'] as bigint,
    quoteTimestamp: Number(a['quoteTimestamp']),
    fillDeadline: Number(a['fillDeadline']),
    exclusivityDeadline: Number(a['exclusivityDeadline']),
    exclusiveRelayer: fromBytes32(a['exclusiveRelayer'] as string),
    message: a['message'] as string,
    blockNumber: log.blockNumber,
    transactionHash: log.transactionHash,
  };
}

/** fillRelay's V3RelayData (bytes32 addresses) for a deposit. */
export function relayData(d: AcrossDeposit): Record<string, unknown> {
  return {
    depositor: toBytes32(d.depositor),
    recipient: toBytes32(d.recipient),
    exclusiveRelayer: toBytes32(d.exclusiveRelayer),
    inputToken: toBytes32(d.inputToken),
    outputToken: toBytes32(d.outputToken),
    inputAmount: d.inputAmount,
    outputAmount: d.outputAmount,
    originChainId: BigInt(d.originChainId),
    depositId: d.depositId,
    fillDeadline: d.fillDeadline,
    exclusivityDeadline: d.exclusivityDeadline,
    message: d.message,
  };
}

export async function readDeposits(provider: JsonRpcProvider, net: AcrossNetwork, fromBlock: number, toBlock: number): Promise<AcrossDeposit[]> {
  if (toBlock < fromBlock) return [];
  const topic = spokePoolInterface().getEvent('FundsDeposited')!.topicHash;
  const logs = await provider.getLogs({ address: net.spokePool, topics: [topic], fromBlock, toBlock });
  return logs.map((l) => decodeDeposit(net.chainId, l));
}

export interface AcrossFill {
  relayer: string;
  repaymentChainId: number;
  blockNumber: number;
  transactionHash: string;
}

/** The FilledRelay of a deposit on its destination (originChainId and depositId are indexed). */
export async function findFill(provider: JsonRpcProvider, destination: AcrossNetwork, d: AcrossDeposit, fromBlock = 0): Promise<AcrossFill | undefined> {
  const iface = spokePoolInterface();
  const logs = await provider.getLogs({
    address: destination.spokePool,
    topics: [iface.getEvent('FilledRelay')!.topicHash, toBeHex(d.originChainId, 32), toBeHex(d.depositId, 32)],
    fromBlock,
    toBlock: 'latest',
  });
  const log = logs[0];
  if (!log) return undefined;
  const a = iface.parseLog(log)!.args;
  return { relayer: fromBytes32(a['relayer'] as string), repaymentChainId: Number(a['repaymentChainId']), blockNumber: log.blockNumber, transactionHash: log.transactionHash };
}

/** fillStatuses(getV3RelayHash(relayData)) on the destination: the pool computes the hash (it includes its chain id). */
export async function fillStatus(provider: JsonRpcProvider, destination: AcrossNetwork, d: AcrossDeposit): Promise<bigint> {
  const iface = spokePoolInterface();
  const call = async (fn: string, args: unknown[]) => iface.decodeFunctionResult(fn, await provider.call({ to: destination.spokePool, data: iface.encodeFunctionData(fn, args) }))[0];
  const hash = (await call('getV3RelayHash', [relayData(d)])) as string;
  return (await call('fillStatuses', [hash])) as bigint;
}

export async function latestTimestamp(provider: JsonRpcProvider): Promise<number> {
  const block = await provider.getBlock('latest');
  if (!block) throw new Error('no latest block');
  return block.timestamp;
}
