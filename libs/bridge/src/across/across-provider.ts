/**
 * Across (intent bridge, SpokePool 5.x) as a BridgeProvider. A deposit is `SpokePool.deposit` on the
 * origin; a relayer fills it on the destination (`FilledRelay`) from its own inventory before the
 * fill deadline; an expired, unfilled deposit is refunded to its depositor on the origin inside a
 * relayer refund leaf (`ExecutedRelayerRefundRoot`). The request id is the origin pool's depositId
 * (a decimal string). Relayer repayments are Across's business, so a filled deposit is `settled`
 * for the user and no `settled` events are reported.
 */
import { getAddress } from 'ethers';
import { JsonRpcClient, type JsonRpcClientOptions } from '@tokensvc/chain';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { BridgeChainClient, chainNow } from '../chain';
import { NATIVE_TOKEN } from '../tokens';
import { sameAddress } from '../tokens';
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
} from '../provider';
import { ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET, ACROSS_FILL_STATUS, acrossSpokePoolInterface, toBytes32 } from './across-abi';
import { type AcrossBridgeConfig, type AcrossNetworkConfig, acrossRoute, acrossRouteToken } from './across-config';
import { AcrossDeposits } from './across-deposits';
import type { AcrossDepositEvent, AcrossDepositRecord } from './across-events';
import { AcrossHistory } from './across-history';
import { encodeAcrossMulticallMessage } from './multicall-message';
import { type AcrossFeeModel, ConfiguredAcrossFees } from './fee-model';

// AcrossDepositRecord lives in across-events.ts; re-exported for the provider's users.
export type { AcrossDepositRecord };

export const ACROSS_BRIDGE_NAME = 'across';

export interface AcrossBridgeProviderOptions {
  config: AcrossBridgeConfig;
  /** by network; a network without one can be routed and quoted offline but not read */
  rpcUrls: Partial<Record<Network, string>>;
  /** default: ConfiguredAcrossFees with its defaults */
  fees?: AcrossFeeModel;
  /** look-ups without a better bound search this many blocks back from the head (default 100,000) */
  maxLookbackBlocks?: number;
  /** blocks per eth_getLogs request (default: the network's maxLogRange) */
  logRange?: number;
  rpc?: JsonRpcClientOptions;
}

const ZERO_BYTES32 = toBytes32(NATIVE_TOKEN);

export class AcrossBridgeProvider implements BridgeProvider {
  readonly name = ACROSS_BRIDGE_NAME;
  /** destination legs ride on the deposit's message, run by Across's MulticallHandler (multicall-message.ts) */
  readonly destinationLeg = 'message' as const;
  /** a relayer pays exactly the deposit's outputAmount */
  readonly outputFixedAtDeposit = true;
  readonly fees: AcrossFeeModel;
  readonly maxLookbackBlocks: number;
  private readonly byNetwork = new Map<Network, AcrossNetworkConfig>();
  private readonly clients = new Map<Network, BridgeChainClient>();
  /** deposits by transaction or id, their fill status and fills (across-deposits.ts) */
  private readonly deposits: AcrossDeposits;
  private readonly history: AcrossHistory;

  constructor(readonly options: AcrossBridgeProviderOptions) {
    this.fees = options.fees ?? new ConfiguredAcrossFees();
    this.maxLookbackBlocks = options.maxLookbackBlocks ?? 100_000;
    for (const n of options.config.networks) {
      if (NETWORK_INFO[n.network].chainId !== n.chainId)
        throw new Error(`${n.network} has chain id ${NETWORK_INFO[n.network].chainId}, the Across config says ${n.chainId}`);
      this.byNetwork.set(n.network, n);
      const url = options.rpcUrls[n.network];
      if (url)
        this.clients.set(
          n.network,
          new BridgeChainClient(
            new JsonRpcClient(url, { timeoutMs: 10_000, ...options.rpc }),
            options.logRange ?? NETWORK_INFO[n.network].maxLogRange,
          ),
        );
    }
    this.deposits = new AcrossDeposits(this);
    this.history = new AcrossHistory(this);
  }

  network(network: Network): AcrossNetworkConfig {
    const n = this.byNetwork.get(network);
    if (!n) throw new Error(`Across is not configured on ${network}`);
    return n;
  }

  networkByChainId(chainId: number | bigint): AcrossNetworkConfig | undefined {
    return [...this.byNetwork.values()].find((n) => BigInt(n.chainId) === BigInt(chainId));
  }

  chain(network: Network): BridgeChainClient {
    const c = this.clients.get(network);
    if (!c) throw new Error(`no RPC URL for ${network}`);
    return c;
  }

  destinationHandler(network: Network): string | undefined {
    const handler = this.byNetwork.get(network)?.multicallHandler;
    return handler ? getAddress(handler) : undefined;
  }

  readable(network: Network): boolean {
    return this.clients.has(network);
  }

  route(originNetwork: Network, destinationNetwork: Network): BridgeRoute | undefined {
    return acrossRoute(this.byNetwork, originNetwork, destinationNetwork);
  }

  /** The route token `inputToken` -> `outputToken` takes, or a BridgeQuoteError saying what to change. */
  routeToken(originNetwork: Network, destinationNetwork: Network, inputToken: string, outputToken: string): BridgeRouteToken {
    return acrossRouteToken(this.byNetwork, originNetwork, destinationNetwork, inputToken, outputToken);
  }

  /** The token the SpokePool sees: the wrapped native token for the native coin. */
  spokeToken(n: AcrossNetworkConfig, token: string): string {
    if (!sameAddress(token, NATIVE_TOKEN)) return getAddress(token);
    if (!n.wrappedNative) throw new Error(`no wrapped native token configured for Across on ${n.network}`);
    return getAddress(n.wrappedNative);
  }

  async quote(request: BridgeQuoteRequest): Promise<BridgeQuote> {
    const { originNetwork, destinationNetwork, inputAmount } = request;
    const token = this.routeToken(originNetwork, destinationNetwork, request.inputToken, request.outputToken);
    const origin = this.network(originNetwork);
    const destination = this.network(destinationNetwork);
    if (inputAmount <= 0n) throw new BridgeQuoteError('AMOUNT_TOO_SMALL', 'the input amount must be positive');
    const f = await this.fees.quote({
      symbol: token.symbol,
      originChainId: origin.chainId,
      destinationChainId: destination.chainId,
      inputToken: this.spokeToken(origin, token.originToken),
      outputToken: this.spokeToken(destination, token.destinationToken),
      inputDecimals: token.originDecimals,
      outputDecimals: token.destinationDecimals,
      amount: inputAmount,
    });
    if (inputAmount < f.minimumInput) {
      throw new BridgeQuoteError(
        'AMOUNT_TOO_SMALL',
        `${inputAmount} base units of ${token.symbol} are below Across's minimum deposit of ${f.minimumInput} from ${originNetwork} to ${destinationNetwork}; send at least ${f.minimumInput}`,
      );
    }
    const fee = f.relayerFee + f.lpFee;
    if (f.outputAmount <= 0n || fee >= inputAmount) {
      throw new BridgeQuoteError(
        'AMOUNT_TOO_SMALL',
        `${inputAmount} base units of ${token.symbol} do not cover Across's fees of ${fee}; send more than ${fee}`,
      );
    }
    // The pool checks quoteTimestamp against its block time (not later, at most depositQuoteTimeBuffer
    // earlier): the origin head's time, or a little before the wall clock when the chain is idle.
    const [originHead, destinationHead] = await Promise.all([this.chain(originNetwork).head(), this.chain(destinationNetwork).head()]);
    const quoteTimestamp = Math.max(originHead.timestamp, Math.floor(Date.now() / 1000) - 300);
    const now = Math.max(chainNow(originHead), chainNow(destinationHead));
    return {
      ...request,
      provider: this.name,
      originChainId: origin.chainId,
      destinationChainId: destination.chainId,
      outputAmount: f.outputAmount,
      fee,
      estimatedSeconds: f.estimatedSeconds,
      fillDeadline: now + f.fillDeadlineOffset,
      quoteTimestamp,
    };
  }

  /**
   * SpokePool.deposit. Across's `depositor` field is whom an expired deposit is refunded to (the
   * pool pulls the input from the sender, whoever it is), so it carries `refundTo`; `depositor`
   * (the sender) is only checked. No exclusive relayer. With a `message` the recipient is the
   * destination's MulticallHandler, which runs the message's calls with what the relayer pays.
   */
  depositCall({ quote, recipient, refundTo, depositor, message }: BridgeDepositCallRequest): BridgeDepositCall {
    if (quote.provider !== this.name) throw new Error(`a ${quote.provider} quote cannot be deposited with ${this.name}`);
    if (quote.quoteTimestamp === undefined) throw new Error('an Across quote carries its quoteTimestamp; quote again');
    getAddress(depositor);
    this.routeToken(quote.originNetwork, quote.destinationNetwork, quote.inputToken, quote.outputToken);
    const origin = this.network(quote.originNetwork);
    const destination = this.network(quote.destinationNetwork);
    const native = sameAddress(quote.inputToken, NATIVE_TOKEN);
    const inputToken = this.spokeToken(origin, quote.inputToken);
    const outputToken = this.spokeToken(destination, quote.outputToken);
    let payee = recipient;
    let messageBytes = '0x';
    if (message) {
      const handler = this.destinationHandler(destination.network);
      if (!handler)
        throw new BridgeQuoteError(
          'NO_ROUTE',
          `Across has no MulticallHandler configured on ${destination.network}, so a deposit cannot carry a destination swap or zap there`,
        );
      payee = handler;
      messageBytes = encodeAcrossMulticallMessage(handler, outputToken, message);
    }
    const data = acrossSpokePoolInterface().encodeFunctionData('deposit', [
      toBytes32(refundTo),
      toBytes32(payee),
      toBytes32(inputToken),
      toBytes32(outputToken),
      quote.inputAmount,
      quote.outputAmount,
      quote.destinationChainId,
      ZERO_BYTES32,
      quote.quoteTimestamp,
      quote.fillDeadline,
      0,
      messageBytes,
    ]);
    return {
      to: getAddress(origin.spokePool),
      data,
      value: native ? quote.inputAmount : 0n,
      amountOffset: ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET,
      approvalToken: native ? undefined : inputToken,
    };
  }

  findDeposit(originNetwork: Network, originTxHash: string): Promise<BridgeDepositInfo[]> {
    return this.deposits.findDeposit(originNetwork, originTxHash);
  }

  /** The deposit `requestId` on `network`'s pool: from memory, else its FundsDeposited (depositId is indexed). */
  depositById(network: Network, requestId: string): Promise<AcrossDepositRecord | undefined> {
    return this.deposits.depositById(network, requestId);
  }

  /** fillStatuses(getV3RelayHash(relayData)) on the deposit's destination; undefined when that network is not readable here. */
  fillStatus(d: AcrossDepositRecord): Promise<bigint | undefined> {
    return this.deposits.fillStatus(d);
  }

  findFill(
    destinationNetwork: Network,
    originChainId: number,
    requestId: string,
    hint: BridgeSearchHint = {},
  ): Promise<BridgeFillInfo | undefined> {
    return this.deposits.findFill(destinationNetwork, originChainId, requestId, hint);
  }

  findRefund(originNetwork: Network, requestId: string, hint: BridgeSearchHint = {}): Promise<BridgeRefundInfo | undefined> {
    return this.history.findRefund(originNetwork, requestId, hint);
  }

  /** settled = filled on the destination (what the user waits for); refunded = a refund leaf paid it back; open otherwise. */
  async depositState(originNetwork: Network, requestId: string): Promise<BridgeDepositState> {
    const deposit = await this.depositById(originNetwork, requestId);
    if (!deposit) return 'unknown';
    if ((await this.fillStatus(deposit)) === ACROSS_FILL_STATUS.Filled) return 'settled';
    return (await this.history.findRefund(originNetwork, requestId)) ? 'refunded' : 'open';
  }

  logs(network: Network, fromBlock: number, toBlock: number): Promise<BridgeEvent[]> {
    return this.history.logs(network, fromBlock, toBlock);
  }

  depositInfo(d: AcrossDepositRecord): BridgeDepositInfo {
    return this.deposits.depositInfo(d);
  }

  remember(n: AcrossNetworkConfig, event: AcrossDepositEvent, at: AcrossDepositRecord['at']): AcrossDepositRecord {
    return this.deposits.remember(n, event, at);
  }
}
