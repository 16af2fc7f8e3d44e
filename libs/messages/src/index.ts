export * from './contracts';
export * from './errors';
export { ErrorCode, RpcError, PingRequest, PingReply } from './generated/tokensvc/v1/common';
export { ListNetworksRequest, ListNetworksReply, ListPlatformsRequest, ListPlatformsReply, Platform } from './generated/tokensvc/v1/catalog';
export { PoolStateChanged, BlockFinalized } from './generated/tokensvc/v1/indexer';
export {
  TokenMetrics,
  Token,
  ListTokensRequest,
  ListTokensReply,
  AccountRequest,
  AccountReply,
  Balance,
  TokenHistoryRequest,
  TokenHistoryReply,
  HistoryEntry,
  TokenTransactionsRequest,
  TokenTransactionsReply,
  Activity,
  ActivityAmount,
  DailyVolume,
  DailyDebtFlow,
  PageInfo,
  TokenMetricsRequest,
  TokenMetricsReply,
  IntervalVolumeMetrics,
  TokenHoldersRequest,
  TokenHoldersReply,
  Holder,
} from './generated/tokensvc/v1/tokens';
export {
  Tx,
  TypedData,
  EstimateRequest,
  EstimateReply,
  EstimateContext,
  ApprovalRequest,
  ApprovalReply,
  ApprovalContext,
  BuildOrderRequest,
  OrderReply,
  OrderContext,
  FeeCost,
  RelayState,
  SubmitOrderRequest,
  OrderStatusRequest,
  StoredOrderReply,
} from './generated/tokensvc/v1/portal';
export { CrossChainStatusRequest, CrossChainStatusReply } from './generated/tokensvc/v1/crosschain';
export {
  CrossChainStatusEvent,
  CrossChainStatusEventsRequest,
  CrossChainStatusEventsReply,
  RegisterWebhookRequest,
  RegisterWebhookReply,
  WebhookInfo,
  ListWebhooksRequest,
  ListWebhooksReply,
  DeleteWebhookRequest,
  DeleteWebhookReply,
} from './generated/tokensvc/v1/push';
