/** What every integrator writes: approve if needed, quote, send (or sign and submit a signed order). */
import { unwrap, type Tokensvc } from './client';
import { OrderFailedError } from './errors';
import { typedDataMessage, waitForReceipt, type Receipt, type WalletAdapter } from './signer';
import type { Approval, Order, PortalQuery, RelayedOrder } from './types';

const NATIVE = '0x0000000000000000000000000000000000000000';

export interface TradeRequest {
  /** `<network>:<address>`; the zero address for the native token */
  inputToken: string;
  /** base units */
  inputAmount: bigint | string;
  outputToken: string;
  /** 0.1 to 10 (percent); omitted: auto slippage */
  slippageTolerancePercentage?: number;
  partner?: string;
  feePercentage?: number;
  /** per receipt (default 120 s) */
  receiptTimeoutMs?: number;
  signal?: AbortSignal;
}

export interface ApprovalResult {
  approval?: Approval;
  /** the approval transaction, when one was needed and sent */
  approvalTxHash?: string;
}

export interface SwapResult extends ApprovalResult {
  order: Order;
  txHash: string;
  receipt: Receipt;
}

export interface SignedOrderResult extends ApprovalResult {
  order: Order;
  signature: string;
  /** the answer of POST /v2/portal: the stored order and where relaying it stands */
  submitted: RelayedOrder;
}

export const isNative = (tokenKey: string): boolean => tokenKey.toLowerCase().endsWith(`:${NATIVE}`);

/**
 * GET /v2/approval for the order's spender (with outputToken, so a cross-chain order gets the
 * cross-chain spender), and the approval transaction sent and mined when the allowance is short.
 * Native input needs none.
 */
export async function ensureApproval(svc: Tokensvc, wallet: WalletAdapter, req: TradeRequest): Promise<ApprovalResult> {
  if (isNative(req.inputToken)) return {};
  const sender = await wallet.getAddress();
  const approval = await unwrap(
    svc.api.GET('/v2/approval', {
      params: { query: { sender, inputToken: req.inputToken, inputAmount: String(req.inputAmount), outputToken: req.outputToken } },
      signal: req.signal,
    }),
  );
  if (!approval.context.shouldApprove) return { approval };
  if (!approval.approve) throw new Error(`GET /v2/approval says to approve ${approval.context.spender} but sent no approval transaction`);
  const hash = await wallet.sendTransaction({
    to: approval.approve.to,
    data: approval.approve.data,
    value: BigInt(approval.approve.value ?? '0'),
  });
  const receipt = await waitForReceipt(wallet, hash, { timeoutMs: req.receiptTimeoutMs, signal: req.signal });
  if (receipt.status !== 'success') throw new OrderFailedError(`the approval transaction ${hash} reverted`, 'reverted', receipt);
  return { approval, approvalTxHash: hash };
}

/** GET /v2/portal for the wallet: the unsigned order. */
export async function quote(svc: Tokensvc, wallet: WalletAdapter, req: TradeRequest): Promise<Order> {
  const query: PortalQuery = {
    sender: await wallet.getAddress(),
    inputToken: req.inputToken,
    inputAmount: String(req.inputAmount),
    outputToken: req.outputToken,
    ...(req.slippageTolerancePercentage === undefined ? {} : { slippageTolerancePercentage: req.slippageTolerancePercentage }),
    ...(req.partner === undefined ? {} : { partner: req.partner }),
    ...(req.feePercentage === undefined ? {} : { feePercentage: req.feePercentage }),
  };
  return unwrap(svc.api.GET('/v2/portal', { params: { query }, signal: req.signal }));
}

/**
 * Quote, approve, send: the approval when needed, then the order's transaction as the API built
 * it, both mined. Same-chain swaps and zaps, and cross-chain orders (follow those with
 * waitForStatus({ orderId, txHash })). A reverted order transaction is an OrderFailedError.
 */
export async function swap(svc: Tokensvc, wallet: WalletAdapter, req: TradeRequest): Promise<SwapResult> {
  const approved = await ensureApproval(svc, wallet, req);
  const order = await quote(svc, wallet, req);
  const from = await wallet.getAddress();
  if (order.tx.from !== undefined && order.tx.from.toLowerCase() !== from.toLowerCase())
    throw new Error(`the order is for ${order.tx.from}, not the wallet ${from}`);
  const txHash = await wallet.sendTransaction({
    to: order.tx.to,
    data: order.tx.data,
    value: BigInt(order.tx.value ?? order.context.value ?? '0'),
    ...(order.tx.gasLimit === undefined ? {} : { gasLimit: BigInt(order.tx.gasLimit) }),
  });
  const receipt = await waitForReceipt(wallet, txHash, { timeoutMs: req.receiptTimeoutMs, signal: req.signal });
  if (receipt.status !== 'success')
    throw new OrderFailedError(`order ${order.context.orderId}: transaction ${txHash} reverted`, 'reverted', receipt);
  return { ...approved, order, txHash, receipt };
}

/**
 * A signed order (same-chain, ERC-20 input): the approval when needed, the quote, its EIP-712
 * typed data signed by the wallet, and POST /v2/portal; the service's relayer sends it and pays
 * the gas. Follow it with waitForStatus({ orderId }).
 */
export async function submitSignedOrder(svc: Tokensvc, wallet: WalletAdapter, req: TradeRequest): Promise<SignedOrderResult> {
  const approved = await ensureApproval(svc, wallet, req);
  const order = await quote(svc, wallet, req);
  if (!order.signedOrder)
    throw new Error(`order ${order.context.orderId} has no signedOrder (native input and cross-chain orders have none)`);
  const signature = await wallet.signTypedData(typedDataMessage(order.signedOrder));
  const submitted = await unwrap(
    svc.api.POST('/v2/portal', { params: { query: { orderId: order.context.orderId, signature } }, signal: req.signal }),
  );
  return { ...approved, order, signature, submitted };
}
