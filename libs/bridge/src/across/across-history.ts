/**
 * The Across look-ups that read history rather than state: refunds, and the events of a block range.
 *
 * Refund matching. Across refunds an expired deposit inside a relayer refund leaf executed on the
 * origin pool (`ExecutedRelayerRefundRoot`: one leaf per chain and token, parallel
 * `refundAddresses` / `refundAmounts`), which names no deposit id. A deposit's refund is therefore
 * the first leaf on its origin that
 * - is executed in a block whose time is after the deposit's fill deadline (no bundle may refund a
 *   deposit that could still be filled), and not before the deposit;
 * - pays the deposit's input token (WETH for a native deposit) to its depositor (Across's
 *   `depositor` field, whom expired deposits go back to), at least its input amount;
 * and the deposit is not filled on its destination (a filled deposit repays its relayer instead).
 * Known limits: a leaf pays an address a sum, so two expired deposits of one depositor and token
 * can both match one leaf (both refunded there, as Across sums them), and a leaf paying that
 * depositor the same token for another reason (it is also a relayer) after the deadline would match
 * too; `deferredRefunds` leaves (credited for a later claim, not transferred) count as refunds.
 */
import type { RpcLog } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { uintTopic } from '../chain';
import type { BridgeEvent, BridgeRefundInfo, BridgeSearchHint } from '../provider';
import { ACROSS_FILL_STATUS, ACROSS_TOPICS, toBytes32 } from './across-abi';
import { type AcrossNetworkConfig, acrossSearchFrom } from './across-config';
import { decodeFilledRelay, decodeFundsDeposited, decodeRefundLeaf, positionOf, refundIndexFor } from './across-events';
import type { BridgeChainClient } from '../chain';
import type { BridgeDepositInfo } from '../provider';
import type { AcrossDepositEvent, AcrossDepositRecord } from './across-events';

/** What the history reads of its provider (AcrossBridgeProvider): named here, so the two files do not import each other. */
export interface AcrossHistoryHost {
  readonly maxLookbackBlocks: number;
  network(network: Network): AcrossNetworkConfig;
  chain(network: Network): BridgeChainClient;
  depositById(network: Network, requestId: string): Promise<AcrossDepositRecord | undefined>;
  fillStatus(d: AcrossDepositRecord): Promise<bigint | undefined>;
  depositInfo(d: AcrossDepositRecord): BridgeDepositInfo;
  remember(n: AcrossNetworkConfig, event: AcrossDepositEvent, at: AcrossDepositRecord['at']): AcrossDepositRecord;
}

export type AcrossRefundEvent = { requestId: string } & Omit<BridgeRefundInfo, 'txHash' | 'blockNumber' | 'logIndex'>;

export class AcrossHistory {
  constructor(private readonly provider: AcrossHistoryHost) {}

  async findRefund(originNetwork: Network, requestId: string, hint: BridgeSearchHint = {}): Promise<BridgeRefundInfo | undefined> {
    const d = await this.provider.depositById(originNetwork, requestId);
    if (!d) return undefined;
    const head = await this.provider.chain(originNetwork).head();
    const found = await this.firstRefundLeaf(d, hint.fromBlock, head.number);
    if (!found) return undefined;
    return {
      txHash: found.transactionHash,
      blockNumber: found.blockNumber,
      logIndex: found.logIndex,
      amount: d.event.inputAmount,
      refundTo: d.event.depositor,
      token: d.event.inputToken,
    };
  }

  /** The refund leaf of deposit `d` in blocks up to `to`, by the rules above. */
  async firstRefundLeaf(d: AcrossDepositRecord, fromHint: number | undefined, to: number): Promise<RpcLog | undefined> {
    if ((await this.provider.fillStatus(d)) === ACROSS_FILL_STATUS.Filled) return undefined;
    const n = d.network;
    const chain = this.provider.chain(n.network);
    const afterDeadline = await chain.firstBlockAtOrAfter(d.event.fillDeadline + 1);
    const from = Math.max(fromHint ?? 0, d.at.blockNumber, afterDeadline);
    const query = { address: n.spokePool, topics: [ACROSS_TOPICS.executedRelayerRefundRoot, uintTopic(n.chainId)] };
    for (let start = from; start <= to; start += chain.logRange) {
      for (const log of await chain.logs(query, start, Math.min(to, start + chain.logRange - 1))) {
        const leaf = decodeRefundLeaf(log, n.spokePool);
        if (leaf && refundIndexFor(leaf, d.event) !== undefined) return log;
      }
    }
    return undefined;
  }

  /**
   * The expired deposits a refund leaf (logged on `n`) refunds: for each address it pays, that
   * depositor's deposits of the leaf's token on `n` whose deadline passed before the leaf, each one
   * whose first matching leaf (above) is this one.
   */
  async refundsInLeaf(n: AcrossNetworkConfig, log: RpcLog): Promise<AcrossRefundEvent[]> {
    const leaf = decodeRefundLeaf(log, n.spokePool);
    if (!leaf || leaf.chainId !== BigInt(n.chainId)) return [];
    const chain = this.provider.chain(n.network);
    const leafTime = (await chain.header(log.blockNumber)).timestamp;
    const out: AcrossRefundEvent[] = [];
    const seen = new Set<string>();
    for (const [i, address] of leaf.refundAddresses.entries()) {
      if (seen.has(address.toLowerCase())) continue;
      seen.add(address.toLowerCase());
      const amount = leaf.refundAmounts[i] ?? 0n;
      const query = { address: n.spokePool, topics: [ACROSS_TOPICS.fundsDeposited, null, null, toBytes32(address)] };
      const deposits = await chain.logsInRange(
        query,
        acrossSearchFrom(n, log.blockNumber, this.provider.maxLookbackBlocks),
        log.blockNumber,
      );
      for (const dl of deposits) {
        const event = decodeFundsDeposited(dl, n.spokePool);
        if (
          !event ||
          event.inputToken.toLowerCase() !== leaf.token.toLowerCase() ||
          event.inputAmount > amount ||
          event.fillDeadline >= leafTime
        )
          continue;
        const d = this.provider.remember(n, event, { txHash: dl.transactionHash, blockNumber: dl.blockNumber, logIndex: dl.logIndex });
        const first = await this.firstRefundLeaf(d, undefined, log.blockNumber);
        if (first && first.transactionHash === log.transactionHash && first.logIndex === log.logIndex) {
          out.push({
            requestId: event.depositId.toString(),
            amount: event.inputAmount,
            refundTo: event.depositor,
            token: event.inputToken,
          });
        }
      }
    }
    return out;
  }

  /** Deposits, fills and the refunds of leaves (attributed as above) logged on `network` in [fromBlock, toBlock], in chain order. */
  async logs(network: Network, fromBlock: number, toBlock: number): Promise<BridgeEvent[]> {
    if (toBlock < fromBlock) return [];
    const n = this.provider.network(network);
    const topic0 = [ACROSS_TOPICS.fundsDeposited, ACROSS_TOPICS.filledRelay, ACROSS_TOPICS.executedRelayerRefundRoot];
    const logs = await this.provider.chain(network).reader.logs({ addresses: [n.spokePool], topic0 }, Math.max(0, fromBlock), toBlock);
    const out: BridgeEvent[] = [];
    for (const log of logs) {
      const at = { ...positionOf(log), blockHash: log.blockHash };
      const deposit = decodeFundsDeposited(log, n.spokePool);
      if (deposit)
        out.push({
          kind: 'deposit',
          ...this.provider.depositInfo(this.provider.remember(n, deposit, positionOf(log))),
          blockHash: at.blockHash,
        });
      const fill = decodeFilledRelay(log, n.spokePool);
      if (fill)
        out.push({
          kind: 'fill',
          originChainId: Number(fill.originChainId),
          requestId: fill.depositId.toString(),
          filler: fill.relayer,
          amount: fill.paidAmount,
          recipient: fill.paidRecipient,
          outputToken: fill.outputToken,
          ...at,
        });
      if (log.topics[0] === ACROSS_TOPICS.executedRelayerRefundRoot) {
        for (const r of await this.refundsInLeaf(n, log)) out.push({ kind: 'refund', ...r, ...at });
      }
    }
    return out;
  }
}
