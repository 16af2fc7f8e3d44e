/**
 * The filler's destination leg: when a deposit asks for a token the bridge does not carry (a
 * basic token, the native coin, an LP share, a vault share, a lending position), the filler
 * spends what the deposit brings in the bridged token on a swap or zap on the destination, then
 * fills with everything it received. The filler only sees this interface, so it does not depend
 * on the quote app: `QuoteServiceSwapper` builds the transaction through the quote service's own
 * requests (GET /v2/portal and /v2/approval as messages), which the filler process sends over
 * NATS (`natsQuoteCalls`) and tests may answer with the in-process use cases.
 */
import type { ApprovalReply, ApprovalRequest, BuildOrderRequest, OrderReply } from '@tokensvc/messages';
import type { Network } from '@tokensvc/domain';

export interface DestinationSwapRequest {
  network: Network;
  /** the bridged token the filler spends from its inventory (address(0) = the native coin) */
  inputToken: string;
  inputAmount: bigint;
  /** the deposit's outputToken (address(0) = the native coin) */
  outputToken: string;
  /** who receives the output: the filler itself, which then fills from it */
  recipient: string;
  /** what the deposit asks the recipient to receive at least (the fill must reach it) */
  minOutputAmount: bigint;
}

/** A ready-to-send transaction of the swap, and what it is expected to deliver. */
export interface DestinationSwap {
  to: string;
  data: string;
  value: bigint;
  gasLimit: bigint;
  /** what executing it now delivers to the recipient (simulated by the builder) */
  expectedOutput: bigint;
  /** the least the transaction itself accepts (it reverts below) */
  minOutput: bigint;
  /** the builder's route, for logs */
  route: string[];
}

export interface DestinationSwapper {
  /** The contract to approve `inputToken` to before `build` (the builder checks the allowance). */
  spender(network: Network, inputToken: string): Promise<string>;
  /** Throws when no swap can be built now (no route, pools moved, builder unreachable); the filler retries later. */
  build(request: DestinationSwapRequest): Promise<DestinationSwap>;
}

/** The two quote-service requests the swapper makes (NATS request/reply, or the use cases in process). */
export interface QuoteCalls {
  buildOrder(request: BuildOrderRequest): Promise<OrderReply>;
  approval(request: ApprovalRequest): Promise<ApprovalReply>;
}

export interface QuoteServiceSwapperOptions {
  /**
   * slippageTolerancePercentage of the swap orders (0.1 to 10, default 0.5): the transaction's own
   * minimum is the builder's expected output less this. The filler refuses a swap whose expected
   * output is below the deposit's minimum before sending it, and does not fill when the swap
   * delivered less than that minimum.
   */
  slippagePercent?: number;
}

const NATIVE = '0x0000000000000000000000000000000000000000';

/** DestinationSwapper over the quote service: a validated same-chain order from the filler to itself. */
export class QuoteServiceSwapper implements DestinationSwapper {
  readonly slippagePercent: number;
  private readonly spenders = new Map<Network, Promise<string>>();

  constructor(
    private readonly calls: QuoteCalls,
    private readonly sender: string,
    options: QuoteServiceSwapperOptions = {},
  ) {
    this.slippagePercent = options.slippagePercent ?? 0.5;
    if (!(this.slippagePercent >= 0.1 && this.slippagePercent <= 10)) throw new Error(`slippagePercent must be between 0.1 and 10, got ${this.slippagePercent}`);
  }

  /** The Router of the network (the approval spender of every order), asked once per network. */
  spender(network: Network, inputToken: string): Promise<string> {
    let known = this.spenders.get(network);
    if (!known) {
      known = this.calls.approval({ sender: this.sender.toLowerCase(), inputToken: `${network}:${inputToken.toLowerCase()}`, inputAmount: '1' }).then((reply) => {
        const spender = reply.context?.spender;
        if (!spender) throw new Error(`the quote service named no spender on ${network}`);
        return spender;
      });
      this.spenders.set(network, known);
      known.catch(() => this.spenders.delete(network));
    }
    return known;
  }

  async build(r: DestinationSwapRequest): Promise<DestinationSwap> {
    if (r.recipient.toLowerCase() !== this.sender.toLowerCase()) throw new Error('the quote service pays orders to their sender: the recipient must be the filler');
    const reply = await this.calls.buildOrder({
      sender: this.sender.toLowerCase(),
      inputToken: `${r.network}:${r.inputToken.toLowerCase()}`,
      inputAmount: r.inputAmount.toString(),
      outputToken: `${r.network}:${r.outputToken.toLowerCase()}`,
      slippageTolerancePercentage: this.slippagePercent,
      validate: true,
    });
    const { context, tx } = reply;
    if (!context || !tx) throw new Error('the quote service answered without context or tx');
    const value = BigInt(tx.value ?? '0');
    const expected = r.inputToken.toLowerCase() === NATIVE ? r.inputAmount : 0n;
    if (value !== expected) throw new Error(`the swap transaction sends ${value} wei, expected ${expected}`);
    return {
      to: tx.to,
      data: tx.data,
      value,
      gasLimit: BigInt(tx.gasLimit ?? context.gasLimit ?? '1000000'),
      expectedOutput: BigInt(context.outputAmount),
      minOutput: BigInt(context.minOutputAmount),
      route: context.route,
    };
  }
}
