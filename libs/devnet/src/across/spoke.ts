/**
 * What the devnet's Across relayer and data worker share: the SpokePool ABI (from the package's
 * artifacts), its bytes32 addresses, the deposit record and reading deposits and fills from logs.
 * Devnet tooling only: no production app imports libs/devnet/src/across.
 */
import { Interface, JsonRpcProvider, type Log, getAddress, toBeHex } from 'ethers';
import { ACROSS_FILL_STATUS, type AcrossDepositEvent, decodeFundsDeposited, fromBytes32, relayDataOf } from '@tokensvc/contracts';
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
export const FILL_STATUS = ACROSS_FILL_STATUS;

/** Addresses as the pool's bytes32 words and back, as the bridge provider converts them. */
export { fromBytes32, toBytes32 } from '@tokensvc/contracts';

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

/** A FundsDeposited event, with addresses as EVM addresses (bytes32 on chain), the chain it was made on and where it was logged. */
export interface AcrossDeposit extends Omit<AcrossDepositEvent, 'destinationChainId'> {
  originChainId: number;
  destinationChainId: number;
  blockNumber: number;
  transactionHash: string;
}

export function depositKey(d: Pick<AcrossDeposit, 'originChainId' | 'depositId'>): string {
  return `${d.originChainId}:${d.depositId}`;
}

/** A FundsDeposited log decoded as the bridge provider decodes it, with the chain it was made on and where it was logged. */
export function decodeDeposit(originChainId: number, log: Log): AcrossDeposit {
  const e = decodeFundsDeposited(log);
  if (!e) throw new Error(`log ${log.transactionHash}#${log.index} is not FundsDeposited`);
  return {
    originChainId,
    ...e,
    destinationChainId: Number(e.destinationChainId),
    blockNumber: log.blockNumber,
    transactionHash: log.transactionHash,
  };
}

/** fillRelay's V3RelayData (bytes32 addresses) for a deposit. */
export function relayData(d: AcrossDeposit): Record<string, unknown> {
  return relayDataOf(d.originChainId, d);
}

export async function readDeposits(
  provider: JsonRpcProvider,
  net: AcrossNetwork,
  fromBlock: number,
  toBlock: number,
): Promise<AcrossDeposit[]> {
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
export async function findFill(
  provider: JsonRpcProvider,
  destination: AcrossNetwork,
  d: AcrossDeposit,
  fromBlock = 0,
): Promise<AcrossFill | undefined> {
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
  return {
    relayer: fromBytes32(a['relayer'] as string),
    repaymentChainId: Number(a['repaymentChainId']),
    blockNumber: log.blockNumber,
    transactionHash: log.transactionHash,
  };
}

/** fillStatuses(getV3RelayHash(relayData)) on the destination: the pool computes the hash (it includes its chain id). */
export async function fillStatus(provider: JsonRpcProvider, destination: AcrossNetwork, d: AcrossDeposit): Promise<bigint> {
  const iface = spokePoolInterface();
  const call = async (fn: string, args: unknown[]) =>
    iface.decodeFunctionResult(fn, await provider.call({ to: destination.spokePool, data: iface.encodeFunctionData(fn, args) }))[0];
  const hash = (await call('getV3RelayHash', [relayData(d)])) as string;
  return (await call('fillStatuses', [hash])) as bigint;
}

export async function latestTimestamp(provider: JsonRpcProvider): Promise<number> {
  const block = await provider.getBlock('latest');
  if (!block) throw new Error('no latest block');
  return block.timestamp;
}
