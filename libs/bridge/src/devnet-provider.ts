/**
 * The devnet bridge provider: BridgeEscrow / BridgeSettler (libs/contracts/solidity/bridge) on
 * every devnet network, filled by the devnet filler (./filler). Fee 0.05 % of the input with a
 * minimum of a few cents, about 30 s from deposit to fill, fill deadline 20 minutes ahead.
 */
import { getAddress } from 'ethers';
import { JsonRpcClient, type JsonRpcClientOptions, type RpcLog } from '@tokensvc/chain';
import {
  BRIDGE_DEPOSIT_STATUSES,
  BRIDGE_MAX_FILL_WINDOW,
  BRIDGE_REFUND_GRACE,
  BRIDGE_TOPICS,
  type BridgeDeposit,
  type BridgeDepositStatus,
  DEPOSIT_INPUT_AMOUNT_OFFSET,
  type DepositCreatedEvent,
  bridgeEscrowInterface,
  bridgeSettlerInterface,
  encodeDeposit,
  parseDepositCreated,
  parseDepositRefunded,
  parseDepositSettled,
  parseFilled,
} from '@tokensvc/contracts';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { BridgeChainClient, chainNow, hexToNumber, uintTopic } from './chain';
import { type DevnetBridgeConfig, type DevnetBridgeNetwork, type DevnetBridgeToken, NATIVE_TOKEN } from './devnet-config';
import {
  type BridgeDepositCall,
  type BridgeDepositCallRequest,
  type BridgeDepositInfo,
  type BridgeDepositState,
  type BridgeEvent,
  type BridgeFillInfo,
  type BridgeProvider,
  type BridgeQuote,
  type BridgeQuoteRequest,
  BridgeQuoteError,
  type BridgeRefundInfo,
  type BridgeRoute,
  type BridgeRouteToken,
  type BridgeSearchHint,
  routeBySymbol,
} from './provider';

export const DEVNET_BRIDGE_NAME = 'devnet-bridge';

export interface DevnetBridgeProviderOptions {
  config: DevnetBridgeConfig;
  /** by network; a network without one can be routed and quoted offline but not read */
  rpcUrls: Partial<Record<Network, string>>;
  /** fee in basis points of the input (default 5 = 0.05 %) */
  feeBps?: number;
  /** minimum fee in USD, converted with the token's price (default 0.03) */
  minFeeUsd?: number;
  /** default 30 */
  estimatedSeconds?: number;
  /** fill deadline = chain time + this (default 1200 = 20 minutes) */
  fillWindowSeconds?: number;
  /** look-ups without a better bound search this many blocks back from the head (default 100,000) */
  maxLookbackBlocks?: number;
  /** blocks per eth_getLogs request (default: the network's maxLogRange) */
  logRange?: number;
  rpc?: JsonRpcClientOptions;
}

/** BridgeEscrow.deposits(requestId), decoded. */
export interface DepositRecord {
  deposit: BridgeDeposit;
  depositor: string;
  status: BridgeDepositStatus;
}

const ZERO_ADDRESS = NATIVE_TOKEN;

export class DevnetBridgeProvider implements BridgeProvider {
  readonly name = DEVNET_BRIDGE_NAME;
  /** the filler swaps or zaps into any destination token (DestinationSwapper) */
  readonly destinationLeg = 'filler' as const;
  /** the filler pays all it received */
  readonly outputFixedAtDeposit = false;
  readonly feeBps: number;
  readonly minFeeUsd: number;
  readonly estimatedSeconds: number;
  readonly fillWindowSeconds: number;
  private readonly maxLookbackBlocks: number;
  private readonly byNetwork = new Map<Network, DevnetBridgeNetwork>();
  private readonly clients = new Map<Network, BridgeChainClient>();

  constructor(readonly options: DevnetBridgeProviderOptions) {
    this.feeBps = options.feeBps ?? 5;
    this.minFeeUsd = options.minFeeUsd ?? 0.03;
    this.estimatedSeconds = options.estimatedSeconds ?? 30;
    this.fillWindowSeconds = options.fillWindowSeconds ?? 1200;
    this.maxLookbackBlocks = options.maxLookbackBlocks ?? 100_000;
    if (this.fillWindowSeconds >= Number(BRIDGE_MAX_FILL_WINDOW)) throw new Error(`fillWindowSeconds must stay below the escrow's ${BRIDGE_MAX_FILL_WINDOW} s`);
    for (const n of options.config.networks) {
      if (NETWORK_INFO[n.network].chainId !== n.chainId) throw new Error(`${n.network} has chain id ${NETWORK_INFO[n.network].chainId}, the bridge config says ${n.chainId}`);
      this.byNetwork.set(n.network, n);
      const url = options.rpcUrls[n.network];
      if (url) this.clients.set(n.network, new BridgeChainClient(new JsonRpcClient(url, { timeoutMs: 10_000, ...options.rpc }), options.logRange ?? NETWORK_INFO[n.network].maxLogRange));
    }
  }

  /** Networks with bridge contracts and an RPC URL. */
  get networks(): DevnetBridgeNetwork[] {
    return [...this.byNetwork.values()].filter((n) => this.clients.has(n.network));
  }

  network(network: Network): DevnetBridgeNetwork {
    const n = this.byNetwork.get(network);
    if (!n) throw new Error(`the devnet bridge is not deployed on ${network}`);
    return n;
  }

  networkByChainId(chainId: number | bigint): DevnetBridgeNetwork | undefined {
    return [...this.byNetwork.values()].find((n) => BigInt(n.chainId) === BigInt(chainId));
  }

  chain(network: Network): BridgeChainClient {
    const c = this.clients.get(network);
    if (!c) throw new Error(`no RPC URL for ${network}`);
    return c;
  }

  /** no handler contract: the filler runs destination legs off-chain */
  destinationHandler(): string | undefined {
    return undefined;
  }

  route(originNetwork: Network, destinationNetwork: Network): BridgeRoute | undefined {
    if (originNetwork === destinationNetwork) return undefined;
    const origin = this.byNetwork.get(originNetwork);
    const destination = this.byNetwork.get(destinationNetwork);
    if (!origin || !destination) return undefined;
    return routeBySymbol(originNetwork, destinationNetwork, origin, destination);
  }

  /** The route token a deposit of `inputToken` travels as (whatever it asks for on the destination), or a BridgeQuoteError. */
  bridgedToken(originNetwork: Network, destinationNetwork: Network, inputToken: string): BridgeRouteToken {
    const route = this.route(originNetwork, destinationNetwork);
    if (!route) throw new BridgeQuoteError('NO_ROUTE', `${this.name} does not bridge from ${originNetwork} to ${destinationNetwork}`);
    const token = route.tokens.find((t) => sameAddress(t.originToken, inputToken));
    if (!token) throw new BridgeQuoteError('UNSUPPORTED_TOKEN', `${this.name} does not bridge ${inputToken} from ${originNetwork} (it bridges ${route.tokens.map((t) => t.symbol).join(', ')})`);
    return token;
  }

  /**
   * What a deposit of `inputAmount` of `inputToken` brings to the destination: the bridged token's
   * counterpart there, after the bridge fee, in destination units (the quote's `outputAmount`).
   * A filler pays this to the recipient, or spends it on the destination swap when the deposit
   * asks for another token. 0 when the amount does not cover the fee.
   */
  bridgedAmount(originNetwork: Network, destinationNetwork: Network, inputToken: string, inputAmount: bigint): { token: BridgeRouteToken; amount: bigint } {
    const token = this.bridgedToken(originNetwork, destinationNetwork, inputToken);
    const originToken = this.network(originNetwork).tokens.find((t) => sameAddress(t.address, token.originToken))!;
    const fee = this.fee(originToken, inputAmount);
    return { token, amount: inputAmount > fee ? rescale(inputAmount - fee, token.originDecimals, token.destinationDecimals) : 0n };
  }

  /** The route token `inputToken` -> `outputToken` takes, or a BridgeQuoteError. */
  routeToken(originNetwork: Network, destinationNetwork: Network, inputToken: string, outputToken: string): BridgeRouteToken {
    const token = this.bridgedToken(originNetwork, destinationNetwork, inputToken);
    if (!sameAddress(token.destinationToken, outputToken)) {
      throw new BridgeQuoteError('UNSUPPORTED_TOKEN', `${this.name} delivers ${token.symbol} on ${destinationNetwork} as ${token.destinationToken}, not ${outputToken}`);
    }
    return token;
  }

  /** What the bridge keeps of `inputAmount` of an origin token: feeBps, at least minFeeUsd. */
  fee(token: DevnetBridgeToken, inputAmount: bigint): bigint {
    const share = ceilDiv(inputAmount * BigInt(this.feeBps), 10_000n);
    const minimum = token.priceUsd && token.priceUsd > 0 ? BigInt(Math.ceil((this.minFeeUsd / token.priceUsd) * 10 ** token.decimals)) : 0n;
    return share > minimum ? share : minimum;
  }

  async quote(request: BridgeQuoteRequest): Promise<BridgeQuote> {
    const { originNetwork, destinationNetwork, inputAmount } = request;
    const token = this.routeToken(originNetwork, destinationNetwork, request.inputToken, request.outputToken);
    if (inputAmount <= 0n) throw new BridgeQuoteError('AMOUNT_TOO_SMALL', 'the input amount must be positive');
    const originToken = this.network(originNetwork).tokens.find((t) => sameAddress(t.address, token.originToken))!;
    const fee = this.fee(originToken, inputAmount);
    const outputAmount = rescale(inputAmount - fee, token.originDecimals, token.destinationDecimals);
    if (inputAmount <= fee || outputAmount <= 0n) {
      throw new BridgeQuoteError('AMOUNT_TOO_SMALL', `${inputAmount} base units of ${token.symbol} do not cover the bridge fee of ${fee}`);
    }
    // Deadlines are checked against block time, which time control can move ahead of ours.
    const [originHead, destinationHead] = await Promise.all([this.chain(originNetwork).head(), this.chain(destinationNetwork).head()]);
    const now = Math.max(chainNow(originHead), chainNow(destinationHead));
    return {
      ...request,
      provider: this.name,
      originChainId: this.network(originNetwork).chainId,
      destinationChainId: this.network(destinationNetwork).chainId,
      outputAmount,
      fee,
      estimatedSeconds: this.estimatedSeconds,
      fillDeadline: now + this.fillWindowSeconds,
    };
  }

  depositCall({ quote, recipient, refundTo, depositor }: BridgeDepositCallRequest): BridgeDepositCall {
    if (quote.provider !== this.name) throw new Error(`a ${quote.provider} quote cannot be deposited with ${this.name}`);
    getAddress(depositor); // throws on a malformed address
    const origin = this.network(quote.originNetwork);
    this.routeToken(quote.originNetwork, quote.destinationNetwork, quote.inputToken, quote.outputToken);
    const native = sameAddress(quote.inputToken, ZERO_ADDRESS);
    const deposit: BridgeDeposit = {
      inputToken: getAddress(quote.inputToken),
      inputAmount: quote.inputAmount,
      destinationChainId: BigInt(quote.destinationChainId),
      outputToken: getAddress(quote.outputToken),
      outputAmount: quote.outputAmount,
      recipient: getAddress(recipient),
      fillDeadline: BigInt(quote.fillDeadline),
      refundTo: getAddress(refundTo),
    };
    return { to: getAddress(origin.escrow), data: encodeDeposit(deposit), value: native ? quote.inputAmount : 0n, amountOffset: DEPOSIT_INPUT_AMOUNT_OFFSET, approvalToken: native ? undefined : deposit.inputToken };
  }

  async findDeposit(originNetwork: Network, originTxHash: string): Promise<BridgeDepositInfo[]> {
    const origin = this.network(originNetwork);
    const receipt = await this.chain(originNetwork).receipt(originTxHash);
    if (!receipt || receipt.status !== '0x1') return [];
    const out: BridgeDepositInfo[] = [];
    for (const log of receipt.logs) {
      const [event] = parseDepositCreated([log], origin.escrow);
      if (event) out.push(this.depositInfo(originNetwork, event, { txHash: log.transactionHash, blockNumber: hexToNumber(log.blockNumber), logIndex: hexToNumber(log.logIndex) }));
    }
    return out;
  }

  /** DepositCreated logs of an origin escrow in [from, to], as deposit infos. */
  async depositsInRange(originNetwork: Network, from: number, to: number): Promise<BridgeDepositInfo[]> {
    const origin = this.network(originNetwork);
    const logs = await this.chain(originNetwork).logsInRange({ address: origin.escrow, topics: [BRIDGE_TOPICS.depositCreated] }, from, to);
    return logs.flatMap((log) => parseDepositCreated([log], origin.escrow).map((e) => this.depositInfo(originNetwork, e, positionOf(log))));
  }

  async findFill(destinationNetwork: Network, originChainId: number, requestId: string, hint: BridgeSearchHint = {}): Promise<BridgeFillInfo | undefined> {
    const destination = this.network(destinationNetwork);
    const chain = this.chain(destinationNetwork);
    const [filler] = await this.filledBy(destinationNetwork, [{ originChainId, requestId }]);
    if (!filler) return undefined;
    const query = { address: destination.settler, topics: [BRIDGE_TOPICS.filled, uintTopic(originChainId), requestId] };
    const head = await chain.head();
    let log: RpcLog | undefined;
    if (hint.fromBlock !== undefined) {
      log = await chain.firstLog(query, hint.fromBlock, head.number);
    } else {
      const deadline = await this.knownDeadline(originChainId, requestId);
      if (deadline !== undefined) {
        // A fill on the deposit's terms happens by its deadline, at most MAX_FILL_WINDOW after the deposit.
        const upper = Math.min(head.number, await chain.lastBlockAtOrBefore(deadline, head));
        const lower = await chain.firstBlockAtOrAfter(deadline - Number(BRIDGE_MAX_FILL_WINDOW), head);
        log = (await chain.lastLog(query, lower, upper)) ?? (await chain.firstLog(query, upper + 1, head.number));
      } else {
        log = await chain.lastLog(query, head.number - this.maxLookbackBlocks, head.number);
      }
    }
    if (!log) throw new Error(`request ${requestId} from chain ${originChainId} is filled by ${filler} on ${destinationNetwork}, but its Filled event is not in the searched blocks`);
    const [event] = parseFilled([log], destination.settler);
    return { ...positionOf(log), filler: event!.filler, amount: event!.outputAmount, recipient: event!.recipient, outputToken: event!.outputToken };
  }

  async findRefund(originNetwork: Network, requestId: string, hint: BridgeSearchHint = {}): Promise<BridgeRefundInfo | undefined> {
    const origin = this.network(originNetwork);
    const chain = this.chain(originNetwork);
    const record = await this.depositRecord(originNetwork, requestId);
    if (record.status !== 'refunded') return undefined;
    const head = await chain.head();
    // No refund is mined before fillDeadline + REFUND_GRACE: the search starts there.
    const from = hint.fromBlock ?? (await chain.firstBlockAtOrAfter(Number(record.deposit.fillDeadline + BRIDGE_REFUND_GRACE), head));
    const log = await chain.firstLog({ address: origin.escrow, topics: [BRIDGE_TOPICS.depositRefunded, requestId] }, from, head.number);
    if (!log) throw new Error(`request ${requestId} on ${originNetwork} is refunded, but its DepositRefunded event is not in blocks ${from}..${head.number}`);
    const [event] = parseDepositRefunded([log], origin.escrow);
    return { ...positionOf(log), amount: event!.amount, refundTo: event!.refundTo, token: event!.token };
  }

  async logs(network: Network, fromBlock: number, toBlock: number): Promise<BridgeEvent[]> {
    if (toBlock < fromBlock) return [];
    const { escrow, settler } = this.network(network);
    const topic0 = [BRIDGE_TOPICS.depositCreated, BRIDGE_TOPICS.depositSettled, BRIDGE_TOPICS.depositRefunded, BRIDGE_TOPICS.filled];
    const logs = await this.chain(network).reader.logs({ addresses: [escrow, settler], topic0 }, Math.max(0, fromBlock), toBlock);
    const out: BridgeEvent[] = [];
    for (const log of logs) {
      const at = { ...positionOf(log), blockHash: log.blockHash };
      const [deposit] = parseDepositCreated([log], escrow);
      if (deposit) out.push({ kind: 'deposit', ...this.depositInfo(network, deposit, at), blockHash: at.blockHash });
      const [settled] = parseDepositSettled([log], escrow);
      if (settled) out.push({ kind: 'settled', requestId: settled.requestId, filler: settled.filler, fillTxHash: settled.fillTxHash, ...at });
      const [refund] = parseDepositRefunded([log], escrow);
      if (refund) out.push({ kind: 'refund', requestId: refund.requestId, amount: refund.amount, refundTo: refund.refundTo, token: refund.token, ...at });
      const [fill] = parseFilled([log], settler);
      if (fill) out.push({ kind: 'fill', originChainId: Number(fill.originChainId), requestId: fill.requestId, filler: fill.filler, amount: fill.outputAmount, recipient: fill.recipient, outputToken: fill.outputToken, ...at });
    }
    return out;
  }

  async depositState(originNetwork: Network, requestId: string): Promise<BridgeDepositState> {
    const { status } = await this.depositRecord(originNetwork, requestId);
    return status === 'none' ? 'unknown' : status;
  }

  async depositRecord(originNetwork: Network, requestId: string): Promise<DepositRecord> {
    const [record] = await this.depositRecords(originNetwork, [requestId]);
    return record!;
  }

  /** BridgeEscrow.deposits for many request ids in one batch. */
  async depositRecords(originNetwork: Network, requestIds: readonly string[]): Promise<DepositRecord[]> {
    if (requestIds.length === 0) return [];
    const { escrow } = this.network(originNetwork);
    const iface = bridgeEscrowInterface();
    const raw = await this.chain(originNetwork).ethCalls(requestIds.map((id) => ({ to: escrow, data: iface.encodeFunctionData('deposits', [id]) })));
    return raw.map(decodeDepositRecord);
  }

  /** BridgeSettler.filledBy for many requests in one batch: the filler, or undefined when unfilled. */
  async filledBy(destinationNetwork: Network, requests: ReadonlyArray<{ originChainId: number | bigint; requestId: string }>): Promise<Array<string | undefined>> {
    if (requests.length === 0) return [];
    const { settler } = this.network(destinationNetwork);
    const iface = bridgeSettlerInterface();
    const raw = await this.chain(destinationNetwork).ethCalls(requests.map((r) => ({ to: settler, data: iface.encodeFunctionData('filledBy', [r.originChainId, r.requestId]) })));
    return raw.map((data) => {
      const filler = iface.decodeFunctionResult('filledBy', data)[0] as string;
      return sameAddress(filler, ZERO_ADDRESS) ? undefined : filler;
    });
  }

  private depositInfo(originNetwork: Network, e: DepositCreatedEvent, at: { txHash: string; blockNumber: number; logIndex: number }): BridgeDepositInfo {
    return {
      requestId: e.requestId,
      originNetwork,
      originChainId: this.network(originNetwork).chainId,
      destinationNetwork: this.networkByChainId(e.destinationChainId)?.network,
      destinationChainId: Number(e.destinationChainId),
      depositor: e.depositor,
      inputToken: e.inputToken,
      inputAmount: e.inputAmount,
      outputToken: e.outputToken,
      outputAmount: e.outputAmount,
      recipient: e.recipient,
      refundTo: e.refundTo,
      fillDeadline: Number(e.fillDeadline),
      ...at,
    };
  }

  /** The deposit's fill deadline when its origin is one of ours and readable. */
  private async knownDeadline(originChainId: number, requestId: string): Promise<number | undefined> {
    const origin = this.networkByChainId(originChainId);
    if (!origin || !this.clients.has(origin.network)) return undefined;
    const record = await this.depositRecord(origin.network, requestId);
    return record.status === 'none' ? undefined : Number(record.deposit.fillDeadline);
  }
}

export function decodeDepositRecord(data: string): DepositRecord {
  const [record] = bridgeEscrowInterface().decodeFunctionResult('deposits', data) as unknown as [{ deposit: Record<string, unknown>; depositor: string; status: bigint }];
  const status = BRIDGE_DEPOSIT_STATUSES[Number(record.status)];
  if (!status) throw new Error(`unknown deposit status ${record.status}`);
  const d = record.deposit;
  return {
    deposit: {
      inputToken: d['inputToken'] as string,
      inputAmount: d['inputAmount'] as bigint,
      destinationChainId: d['destinationChainId'] as bigint,
      outputToken: d['outputToken'] as string,
      outputAmount: d['outputAmount'] as bigint,
      recipient: d['recipient'] as string,
      fillDeadline: d['fillDeadline'] as bigint,
      refundTo: d['refundTo'] as string,
    },
    depositor: record.depositor,
    status,
  };
}

function positionOf(log: RpcLog): { txHash: string; blockNumber: number; logIndex: number } {
  return { txHash: log.transactionHash, blockNumber: log.blockNumber, logIndex: log.logIndex };
}

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** Same asset, other decimals (rounded down: the bridge never delivers more than it took). */
export function rescale(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (fromDecimals === toDecimals) return amount;
  return toDecimals > fromDecimals ? amount * 10n ** BigInt(toDecimals - fromDecimals) : amount / 10n ** BigInt(fromDecimals - toDecimals);
}
