/**
 * Cross-chain orders (input and output tokens on different networks). Three legs:
 *
 * 1. origin (the user's transaction, Router.executeBridge): partner fee, an optional swap into a
 *    bridged asset (native input is wrapped by the Router and bridged as WETH), then a bridge
 *    deposit of all of it;
 * 2. the bridge: keeps its fee and has a filler pay on the destination;
 * 3. destination: when the output token is not what the bridge pays (another basic token, the
 *    native coin, an LP share, a vault share, a lending position), a swap or zap on the destination
 *    with this service's own Router, run by the bridge's handler contract from calls the deposit
 *    carries (Across's MulticallHandler: `destinationLeg` 'message'): the relayer pays the
 *    deposit's outputAmount of the bridged asset to the handler, which runs `Router.execute` with
 *    it for the order's minOutputAmount of the final token to the recipient, or the whole fill
 *    reverts (nobody can fill: the deposit is refunded on the origin after its deadline). An order
 *    for the wrapped native token rides on a message too, with no calls: Across would pay it to an
 *    externally owned account as the native coin, so it pays the handler (a contract, paid in the
 *    wrapped token), which passes all of it on to the recipient (`handlerForwards`).
 *
 * Which bridged asset and the minimums of each leg: ./cross-chain-planner.ts.
 */
import { randomUUID } from 'node:crypto';
import { type BridgeDestinationMessage, type BridgeProvider } from '@tokensvc/bridge';
import {
  EXECUTE_INPUT_AMOUNT_OFFSET,
  type ExecutorCall,
  type RouterOrder,
  bridgeDepositExecutorCall,
  encodeExecute,
  encodeExecuteBridge,
  routeHash,
  wrapAllCall,
} from '@tokensvc/contracts';
import { CROSS_CHAIN_PERMIT_MESSAGE, NETWORK_INFO, ZERO_ADDRESS, type Network, tokenKey } from '@tokensvc/domain';
import { type BuildOrderRequest, type EstimateReply, type EstimateRequest, type OrderReply } from '@tokensvc/messages';
import type { ChainClock } from '../chain/chain-clients';
import type { RouterDirectory } from '../chain/router-directory';
import { usdValue } from '../graph/catalog';
import type { LiquidityGraphs } from '../graph/liquidity-graphs';
import { timedBuild } from '../metrics';
import { crossChainContext } from './cross-chain-context';
import { checkPayoutAddress } from './payout-address';
import { type Leg, carriesMessage } from './cross-chain-leg';
import { CrossChainPlanner } from './cross-chain-planner';
import { orderCalls } from './order-tx';
import { type QuoteEngine, routedDeployment } from './quote-engine';
import { badRequest, parseAddress, parsePartnerFee, parsePositiveAmount, parseSlippage } from './request-parsing';
import { bufferedGas, round6 } from './slippage';
import type { NetworkDeployment, RoutedDeployment } from '../config/quote-config';
import type { OrderStore } from '../relay/order-store';

/**
 * Gas of the Router's bridge leg without a swap: pull, partner fee, funding the executor and the
 * deposit (which stores the whole deposit record, ~290k on its own). Measured about 390k on the
 * devnet; the static figure keeps headroom because cross-chain orders are not simulated.
 */
const DEPOSIT_GAS = 420_000;
/**
 * Extra gas of a deposit that carries a destination leg as its message (~2 KB: calldata, the copy
 * into the pool and the FundsDeposited log); measured ~60k on the devnet for a two-hop swap.
 */
const MESSAGE_GAS = 100_000;
/** Any valid address: only the deposit call's target is used. */
const PLACEHOLDER = '0x0000000000000000000000000000000000000001';
const EXPLAIN_SAME_CHAIN = 'explain=true is available for same-chain orders only (inputToken and outputToken on one network)';

export class CrossChainOrders {
  /** which bridged asset, the swaps around it and the minimums */
  private readonly planner: CrossChainPlanner;

  constructor(
    engine: QuoteEngine,
    private readonly graphs: LiquidityGraphs,
    private readonly routers: RouterDirectory,
    private readonly deployments: ReadonlyMap<Network, NetworkDeployment>,
    private readonly bridge: BridgeProvider | undefined,
    private readonly validitySeconds: number,
    /** the origin's clock (deadlines); `get` reads the recipient's code on the destination (Across's native payout) */
    private readonly clock: ChainClock & { get(network: Network): { call<T>(method: string, params: unknown[]): Promise<T> } },
    private readonly store?: OrderStore,
  ) {
    this.planner = new CrossChainPlanner(engine, graphs, deployments, bridge);
  }

  /**
   * A bridge without destination swaps whose route carries the native coin pays a wrapped-native
   * fill as the native coin to an EOA and as the wrapped token to a contract (Across's SpokePool):
   * the order's output must be what the recipient (the sender) will really get. Through the
   * bridge's handler (a destination leg, or `handlerForwards`) the message decides what is paid.
   */
  private async checkNativePayout(leg: Leg, recipient: string): Promise<void> {
    if (carriesMessage(leg)) return;
    const wrapped = this.deployments.get(leg.destination)?.wrappedNative;
    const output = leg.output.address;
    if (output !== ZERO_ADDRESS && output !== wrapped) return;
    if (
      leg.bridged.destinationToken.toLowerCase() !== wrapped ||
      !this.bridge!.route(leg.origin, leg.destination)?.tokens.some((t) => t.destinationToken === ZERO_ADDRESS)
    )
      return;
    const code = await this.clock.get(leg.destination).call<string>('eth_getCode', [recipient, 'latest']);
    const contract = code !== '0x' && code !== '0x0';
    const native = NETWORK_INFO[leg.destination].nativeSymbol;
    if (output === ZERO_ADDRESS && contract) {
      throw badRequest(
        `the ${this.bridge!.name} bridge pays a contract recipient (${recipient} on ${leg.destination}) in ${leg.bridged.symbol}, not ${native}: ask for ${tokenKey(leg.destination, wrapped)} as outputToken`,
      );
    }
    if (output === wrapped && !contract) {
      throw badRequest(
        `the ${this.bridge!.name} bridge pays ${leg.bridged.symbol} to an externally owned account (${recipient} on ${leg.destination}) as ${native}: ask for ${tokenKey(leg.destination, ZERO_ADDRESS)} (${native}) as outputToken`,
      );
    }
  }

  private deployment(network: Network): RoutedDeployment {
    return routedDeployment(this.deployments, network);
  }

  /** GET /v2/portal/estimate across networks (off-chain: quoted from the liquidity graphs and the bridge's fee schedule). */
  estimate(req: EstimateRequest): Promise<EstimateReply> {
    return timedBuild('estimate', () => this.estimateNow(req));
  }

  private async estimateNow(req: EstimateRequest): Promise<EstimateReply> {
    if (req.explain) throw badRequest(EXPLAIN_SAME_CHAIN);
    const amount = parsePositiveAmount(req.inputAmount, 'inputAmount');
    const leg = await this.planner.plan(
      req.inputToken,
      req.outputToken,
      amount,
      parsePartnerFee(undefined, undefined),
      parseSlippage(req.slippageTolerancePercentage),
    );
    const outputKey = tokenKey(leg.destination, leg.output.address);
    return {
      outputToken: outputKey,
      outputAmount: leg.expectedOutput.toString(),
      minOutputAmount: leg.minOutput.toString(),
      outputTokenDecimals: leg.output.decimals,
      context: {
        inputToken: tokenKey(leg.origin, leg.input.address),
        inputAmount: amount.toString(),
        inputAmountUsd: round6(usdValue(leg.input, amount)),
        outputToken: outputKey,
        outputAmount: leg.expectedOutput.toString(),
        outputAmountUsd: round6(usdValue(leg.output, leg.expectedOutput)),
        minOutputAmountUsd: round6(usdValue(leg.output, leg.minOutput)),
        slippageTolerancePercentage: leg.slippage,
        simulated: false,
        gasLimit: this.gasLimit(leg).toString(),
        pinnedBlocks: leg.pinned,
      },
    };
  }

  /** The user's transaction only: the destination leg's gas is the relayer's. */
  private gasLimit(leg: Leg): bigint {
    return bufferedGas(
      BigInt((leg.originSwap?.plan.gas ?? 0) + DEPOSIT_GAS + (leg.mode === 'message' && carriesMessage(leg) ? MESSAGE_GAS : 0)),
    );
  }

  /** GET /v2/portal across networks: the Router transaction of the origin leg, stored like every order. */
  build(req: BuildOrderRequest): Promise<OrderReply> {
    return timedBuild('cross_chain', () => this.buildNow(req));
  }

  private async buildNow(req: BuildOrderRequest): Promise<OrderReply> {
    if (req.permitSignature !== undefined) throw badRequest(CROSS_CHAIN_PERMIT_MESSAGE);
    if (req.explain) throw badRequest(EXPLAIN_SAME_CHAIN);
    const sender = parseAddress(req.sender, 'sender', { allowZero: false });
    // who is paid on the output network: the sender unless a recipient is named
    const recipient = req.recipient === undefined ? sender : parseAddress(req.recipient, 'recipient', { allowZero: false });
    const amount = parsePositiveAmount(req.inputAmount, 'inputAmount');
    const fee = parsePartnerFee(req.partner, req.feePercentage);
    const leg = await this.planner.plan(req.inputToken, req.outputToken, amount, fee, parseSlippage(req.slippageTolerancePercentage));
    const readCode = (network: Network, address: string): Promise<string> =>
      this.clock.get(network).call<string>('eth_getCode', [address, 'latest']);
    await checkPayoutAddress(readCode, {
      origin: leg.origin,
      destination: leg.destination,
      address: recipient,
      role: req.recipient === undefined ? 'sender' : 'recipient',
    });
    await this.checkNativePayout(leg, recipient);
    const origin = this.deployment(leg.origin);
    const executor = await this.routers.executor(leg.origin, origin.router);
    // the origin's clock: the Router checks the deadline against its block time
    const routerDeadline = BigInt((await this.clock.now(leg.origin)) + this.validitySeconds);
    const deadline = routerDeadline < BigInt(leg.bridgeMin.fillDeadline) ? routerDeadline : BigInt(leg.bridgeMin.fillDeadline);
    const escrow = this.escrow(leg);
    // Residuals of the origin swap (if any) go back to the sender; the bridged asset stays for the deposit.
    // The Router hands native input to the executor as native: the origin swap's calls start by
    // wrapping it, and a native input bridged as the wrapped native token (no swap) is wrapped here.
    const swapCalls: ExecutorCall[] = leg.originSwap
      ? orderCalls(leg.originSwap, { executor, recipient: sender, deadline })
      : leg.input.address === ZERO_ADDRESS
        ? [wrapAllCall(origin.wrappedNative)]
        : [];
    const calls = [...swapCalls, await this.providerDepositCall(leg, executor, { sender, recipient })];
    const order: RouterOrder = {
      inputToken: leg.input.address,
      inputAmount: amount,
      outputToken: leg.bridged.originToken.toLowerCase(),
      minOutputAmount: leg.minBridged,
      recipient: escrow,
      partner: fee.partner,
      feeBps: fee.bps,
      deadline,
    };
    const value = leg.input.address === ZERO_ADDRESS ? amount : 0n;
    const data = encodeExecuteBridge(order, calls);
    const gasLimit = this.gasLimit(leg);
    const orderId = randomUUID();
    const reply: OrderReply = {
      context: crossChainContext(leg, this.graphs, {
        orderId,
        sender,
        recipient,
        deadline,
        routeHash: routeHash(calls),
        target: origin.router,
        value,
        gasLimit,
        order,
        calls,
        outputFixedAtDeposit: this.bridge!.outputFixedAtDeposit,
      }),
      tx: { to: origin.router, from: sender, data, value: value.toString(), gasLimit: gasLimit.toString() },
      signedOrder: undefined,
    };
    await this.store?.save({
      orderId,
      network: leg.origin,
      chainId: origin.chainId,
      sender,
      client: req.client,
      expiresAt: new Date(Number(deadline) * 1000),
      reply,
    });
    return reply;
  }

  /**
   * The provider's own deposit call for the bridged token's counterpart, with the destination leg
   * as its message when there is one; the executor deposits the bridged token at the call's
   * amountOffset (exactly the origin minimum on a fixed-output bridge, else all it holds).
   */
  private async providerDepositCall(leg: Leg, executor: string, to: { sender: string; recipient: string }): Promise<ExecutorCall> {
    // handlerForwards: no calls, the handler's last call (drainLeftoverTokens) pays the recipient all the wrapped native token that arrived
    const forward: BridgeDestinationMessage | undefined = leg.handlerForwards ? { calls: [], leftoverRecipient: to.recipient } : undefined;
    const message = leg.destinationSwap ? await this.destinationMessage(leg, to.recipient) : forward;
    // Without a destination leg the deposit asks for the order's minimum; with one, for what the origin minimum makes of the bridged asset.
    const outputAmount = message ? leg.bridgeMin.outputAmount : leg.minOutput;
    // a refund goes back to the sender on the origin network; the payout to the recipient on the destination
    const call = this.bridge!.depositCall({
      quote: { ...leg.bridgeMin, outputAmount },
      depositor: executor,
      recipient: to.recipient,
      refundTo: to.sender,
      message,
    });
    if (!call.approvalToken || call.value !== 0n)
      throw new Error(
        `the ${this.bridge!.name} deposit of ${leg.bridged.symbol} is not an ERC-20 deposit; the Router deposits ERC-20s only`,
      );
    // A fixed-output bridge gets exactly the origin minimum: the Router sweeps the rest back to the sender.
    return bridgeDepositExecutorCall(call, call.approvalToken, this.bridge!.outputFixedAtDeposit ? leg.minBridged : undefined);
  }

  /**
   * The destination leg as the deposit's message: `Router.execute` on the destination, from the
   * bridge's handler, with the handler's whole balance of the bridged asset as input (written when
   * it runs), the order's minimum of the final token to the recipient, before the fill deadline.
   */
  private async destinationMessage(leg: Leg, recipient: string): Promise<BridgeDestinationMessage> {
    const swap = leg.destinationSwap!;
    const destination = this.deployment(leg.destination);
    const executor = await this.routers.executor(leg.destination, destination.router);
    const deadline = BigInt(leg.bridgeMin.fillDeadline);
    const order: RouterOrder = {
      inputToken: leg.bridged.destinationToken.toLowerCase(),
      inputAmount: 0n,
      outputToken: leg.output.address,
      minOutputAmount: leg.minOutput,
      recipient,
      partner: ZERO_ADDRESS,
      feeBps: 0,
      deadline,
    };
    const data = encodeExecute(order, orderCalls(swap, { executor, recipient, deadline }));
    return {
      calls: [{ target: destination.router, data, value: 0n, approveBalance: true, balanceOffset: EXECUTE_INPUT_AMOUNT_OFFSET }],
      leftoverRecipient: recipient,
    };
  }

  /** The escrow the provider deposits into on the origin (from its deposit call). */
  private escrow(leg: Leg): string {
    const call = this.bridge!.depositCall({ quote: leg.bridgeMin, depositor: PLACEHOLDER, recipient: PLACEHOLDER, refundTo: PLACEHOLDER });
    return call.to.toLowerCase();
  }
}
