export { createTokensvc, unwrap, type Tokensvc, type TokensvcOptions } from './client';
export { TokensvcError, TokensvcTimeoutError, OrderFailedError, readRateLimit, type RateLimit } from './errors';
export type { RetryOptions } from './retry-fetch';
export { tokens, type PageOptions } from './paging';
export {
  fromEthers,
  fromViem,
  typedDataMessage,
  waitForReceipt,
  type WalletAdapter,
  type EthersSignerLike,
  type ViemWalletLike,
  type ViemPublicLike,
  type TxRequest,
  type Receipt,
  type TypedDataMessage,
} from './signer';
export {
  ensureApproval,
  quote,
  swap,
  submitSignedOrder,
  isNative,
  type TradeRequest,
  type SwapResult,
  type SignedOrderResult,
  type ApprovalResult,
} from './trade';
export { waitForStatus, SAME_CHAIN_FINAL, CROSS_CHAIN_FINAL, type WaitOptions } from './status';
export type * from './types';
