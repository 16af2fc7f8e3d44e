/**
 * The Across look-ups that read a deposit's state: the deposits of an origin transaction, a deposit
 * by its id (remembered once seen), its fill status and its FilledRelay on the destination.
 */
import type { RpcLog } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { type BridgeChainClient, hexToNumber, uintTopic } from '../chain';
import type { BridgeDepositInfo, BridgeFillInfo, BridgeSearchHint } from '../provider';
import { ACROSS_FILL_STATUS, ACROSS_TOPICS, acrossSpokePoolInterface } from './across-abi';
import { type AcrossNetworkConfig, acrossSearchFrom } from './across-config';
import {
  type AcrossDepositEvent,
  type AcrossDepositRecord,
  decodeFilledRelay,
  decodeFundsDeposited,
  positionOf,
  relayDataOf,
} from './across-events';

/** What the deposit look-ups read of their provider (AcrossBridgeProvider): named here, so the two files do not import each other. */
export interface AcrossDepositsHost {
  readonly maxLookbackBlocks: number;
  network(network: Network): AcrossNetworkConfig;
  networkByChainId(chainId: number | bigint): AcrossNetworkConfig | undefined;
  chain(network: Network): BridgeChainClient;
  readable(network: Network): boolean;
}

export class AcrossDeposits {
  private readonly deposits = new Map<string, AcrossDepositRecord>();

  constructor(private readonly provider: AcrossDepositsHost) {}

  async findDeposit(originNetwork: Network, originTxHash: string): Promise<BridgeDepositInfo[]> {
    const origin = this.provider.network(originNetwork);
    const receipt = await this.provider.chain(originNetwork).receipt(originTxHash);
    if (!receipt || receipt.status !== '0x1') return [];
    const out: BridgeDepositInfo[] = [];
    for (const log of receipt.logs) {
      const event = decodeFundsDeposited(log, origin.spokePool);
      if (event)
        out.push(
          this.depositInfo(
            this.remember(origin, event, {
              txHash: log.transactionHash,
              blockNumber: hexToNumber(log.blockNumber),
              logIndex: hexToNumber(log.logIndex),
            }),
          ),
        );
    }
    return out;
  }

  /** The deposit `requestId` on `network`'s pool: from memory, else its FundsDeposited (depositId is indexed). */
  async depositById(network: Network, requestId: string): Promise<AcrossDepositRecord | undefined> {
    const n = this.provider.network(network);
    if (!/^\d{1,78}$/.test(requestId)) return undefined;
    const known = this.deposits.get(`${network}:${requestId}`);
    if (known) return known;
    const chain = this.provider.chain(network);
    const id = BigInt(requestId);
    // Ids below 2^32 are sequential: one the pool has not reached yet needs no search.
    if (id < 2n ** 32n) {
      const iface = acrossSpokePoolInterface();
      const count = iface.decodeFunctionResult(
        'numberOfDeposits',
        await chain.ethCall(n.spokePool, iface.encodeFunctionData('numberOfDeposits')),
      )[0] as bigint;
      if (id >= count) return undefined;
    }
    const head = await chain.head();
    const log = await chain.lastLog(
      { address: n.spokePool, topics: [ACROSS_TOPICS.fundsDeposited, null, uintTopic(id)] },
      acrossSearchFrom(n, head.number, this.provider.maxLookbackBlocks),
      head.number,
    );
    const event = log && decodeFundsDeposited(log, n.spokePool);
    return event ? this.remember(n, event, positionOf(log)) : undefined;
  }

  /** fillStatuses(getV3RelayHash(relayData)) on the deposit's destination; undefined when that network is not readable here. */
  async fillStatus(d: AcrossDepositRecord): Promise<bigint | undefined> {
    const destination = this.provider.networkByChainId(d.event.destinationChainId);
    if (!destination || !this.provider.readable(destination.network)) return undefined;
    const chain = this.provider.chain(destination.network);
    const iface = acrossSpokePoolInterface();
    const hashData = await chain.ethCall(
      destination.spokePool,
      iface.encodeFunctionData('getV3RelayHash', [relayDataOf(d.network.chainId, d.event)]),
    );
    const hash = iface.decodeFunctionResult('getV3RelayHash', hashData)[0] as string;
    return iface.decodeFunctionResult(
      'fillStatuses',
      await chain.ethCall(destination.spokePool, iface.encodeFunctionData('fillStatuses', [hash])),
    )[0] as bigint;
  }

  async findFill(
    destinationNetwork: Network,
    originChainId: number,
    requestId: string,
    hint: BridgeSearchHint = {},
  ): Promise<BridgeFillInfo | undefined> {
    const destination = this.provider.network(destinationNetwork);
    const chain = this.provider.chain(destinationNetwork);
    if (!/^\d{1,78}$/.test(requestId)) return undefined;
    const query = {
      address: destination.spokePool,
      topics: [ACROSS_TOPICS.filledRelay, uintTopic(originChainId), uintTopic(BigInt(requestId))],
    };
    const origin = this.provider.networkByChainId(originChainId);
    let log: RpcLog | undefined;
    const deposit = origin && this.provider.readable(origin.network) ? await this.depositById(origin.network, requestId) : undefined;
    if (origin && this.provider.readable(origin.network)) {
      if (!deposit || deposit.event.destinationChainId !== BigInt(destination.chainId)) return undefined;
      if ((await this.fillStatus(deposit)) !== ACROSS_FILL_STATUS.Filled) return undefined;
    }
    // The head after the fill status: a fill mined between the two reads is then inside the searched blocks.
    const head = await chain.head();
    if (hint.fromBlock !== undefined) {
      log = await chain.firstLog(query, hint.fromBlock, head.number);
    } else if (deposit) {
      // Filled at a block time in (quoteTimestamp - the quote buffer, fillDeadline]: search there first.
      const upper = Math.min(head.number, await chain.lastBlockAtOrBefore(deposit.event.fillDeadline, head));
      const lower = await chain.firstBlockAtOrAfter(deposit.event.quoteTimestamp - 3600, head);
      log = (await chain.lastLog(query, lower, upper)) ?? (await chain.firstLog(query, upper + 1, head.number));
    } else {
      log = await chain.lastLog(query, acrossSearchFrom(destination, head.number, this.provider.maxLookbackBlocks), head.number);
    }
    if (!log) {
      if (deposit)
        throw new Error(
          `deposit ${requestId} from chain ${originChainId} is filled on ${destinationNetwork}, but its FilledRelay is not in the searched blocks`,
        );
      return undefined;
    }
    const fill = decodeFilledRelay(log, destination.spokePool)!;
    return {
      ...positionOf(log),
      filler: fill.relayer,
      amount: fill.paidAmount,
      recipient: fill.paidRecipient,
      outputToken: fill.outputToken,
    };
  }

  depositInfo(d: AcrossDepositRecord): BridgeDepositInfo {
    const e = d.event;
    return {
      requestId: e.depositId.toString(),
      originNetwork: d.network.network,
      originChainId: d.network.chainId,
      destinationNetwork: this.provider.networkByChainId(e.destinationChainId)?.network,
      destinationChainId: Number(e.destinationChainId),
      depositor: e.depositor,
      inputToken: e.inputToken,
      inputAmount: e.inputAmount,
      outputToken: e.outputToken,
      outputAmount: e.outputAmount,
      recipient: e.recipient,
      refundTo: e.depositor,
      fillDeadline: e.fillDeadline,
      ...d.at,
    };
  }

  remember(n: AcrossNetworkConfig, event: AcrossDepositEvent, at: AcrossDepositRecord['at']): AcrossDepositRecord {
    const record = { network: n, event, at };
    this.deposits.set(`${n.network}:${event.depositId}`, record);
    return record;
  }
}
