/**
 * Test helper: takes the API's approval and order transactions as they are, signs and sends them
 * from a wallet, and reports what the recipient received (the Router's OrderExecuted event, which
 * measures the recipient's balance delta, and the balance delta itself for ERC-20 outputs).
 */
import { Interface, JsonRpcProvider, Wallet, type TransactionReceipt } from 'ethers';
import { parseOrderExecuted } from '@tokensvc/contracts';
import type { ApprovalReply, BuildOrderRequest, EstimateReply, OrderReply } from '@tokensvc/messages';
import type { ApprovalUseCase } from '../orders/approval.usecase';
import type { BuildOrderUseCase } from '../orders/build-order.usecase';
import type { EstimateUseCase } from '../orders/estimate.usecase';

const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)']);
const ZERO = '0x0000000000000000000000000000000000000000';

export interface RunResult {
  estimate: EstimateReply;
  approval: ApprovalReply | undefined;
  order: OrderReply;
  receipt: TransactionReceipt;
  /** OrderExecuted.outputAmount (the Router's measurement of the recipient's balance delta) */
  received: bigint;
  /** balanceOf delta of the recipient (ERC-20 outputs), or native delta plus gas paid */
  balanceDelta: bigint;
  routeHash: string;
}

export class OrderRunner {
  constructor(
    readonly provider: JsonRpcProvider,
    private readonly estimates: EstimateUseCase,
    private readonly approvals: ApprovalUseCase,
    private readonly orders: BuildOrderUseCase,
  ) {}

  async balance(token: string, owner: string): Promise<bigint> {
    if (token === ZERO) return this.provider.getBalance(owner);
    return BigInt(await this.provider.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }));
  }

  async send(wallet: Wallet, tx: { to: string; data: string; value?: string; gasLimit?: string }): Promise<TransactionReceipt> {
    const sent = await wallet.sendTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value ?? '0'),
      gasLimit: tx.gasLimit ? BigInt(tx.gasLimit) : undefined,
    });
    const receipt = await sent.wait();
    if (!receipt || receipt.status !== 1) throw new Error(`transaction ${sent.hash} failed`);
    return receipt;
  }

  /** Approval (approve tx or permit), order, send; `permit` signs the approval's typed data instead of sending approve. */
  async run(wallet: Wallet, req: Omit<BuildOrderRequest, 'sender'>, opts: { permit?: boolean } = {}): Promise<RunResult> {
    const sender = wallet.address.toLowerCase();
    const estimate = await this.estimates.execute({
      inputToken: req.inputToken,
      inputAmount: req.inputAmount,
      outputToken: req.outputToken,
    });
    const inputAddress = req.inputToken.split(':')[1]!;
    const outputAddress = req.outputToken.split(':')[1]!;
    let approval: ApprovalReply | undefined;
    let permitSignature: string | undefined;
    let permitDeadline: string | undefined;
    if (inputAddress !== ZERO) {
      approval = await this.approvals.execute({
        sender,
        inputToken: req.inputToken,
        inputAmount: req.inputAmount,
        outputToken: req.outputToken,
      });
      if (opts.permit) {
        const p = approval.permit;
        if (!p?.domain || !p.types || !p.value) throw new Error('the approval has no permit typed data');
        permitSignature = await wallet.signTypedData(p.domain, p.types, p.value);
        permitDeadline = String(p.value['deadline']);
      } else if (approval.approve) {
        await this.send(wallet, approval.approve);
      }
    }
    const order = await this.orders.execute({ ...req, sender, permitSignature, permitDeadline });
    if (!order.tx) throw new Error('the order has no tx');
    const before = await this.balance(outputAddress, sender);
    const receipt = await this.send(wallet, order.tx);
    const after = await this.balance(outputAddress, sender);
    const gasPaid = outputAddress === ZERO ? receipt.gasUsed * receipt.gasPrice : 0n;
    const [event] = parseOrderExecuted(receipt.logs, order.tx.to);
    if (!event) throw new Error('no OrderExecuted event');
    return {
      estimate,
      approval,
      order,
      receipt,
      received: event.outputAmount,
      balanceDelta: after - before + gasPaid,
      routeHash: event.routeHash,
    };
  }
}
