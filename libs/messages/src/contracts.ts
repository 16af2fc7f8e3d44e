import { ListNetworksReply, ListNetworksRequest, ListPlatformsReply, ListPlatformsRequest } from './generated/tokensvc/v1/catalog';
import { PingReply, PingRequest } from './generated/tokensvc/v1/common';
import {
  AccountReply,
  AccountRequest,
  ListTokensReply,
  ListTokensRequest,
  TokenHistoryReply,
  TokenHistoryRequest,
  TokenHoldersReply,
  TokenHoldersRequest,
  TokenMetricsReply,
  TokenMetricsRequest,
  TokenTransactionsReply,
  TokenTransactionsRequest,
} from './generated/tokensvc/v1/tokens';
import {
  ApprovalReply,
  ApprovalRequest,
  BuildOrderRequest,
  EstimateReply,
  EstimateRequest,
  MultiOrderReply,
  MultiOrderRequest,
  OrderReply,
  OrderStatusRequest,
  StoredOrderReply,
  SubmitOrderRequest,
} from './generated/tokensvc/v1/portal';
import { CrossChainStatusReply, CrossChainStatusRequest } from './generated/tokensvc/v1/crosschain';
import {
  CrossChainStatusEventsReply,
  CrossChainStatusEventsRequest,
  DeleteWebhookReply,
  DeleteWebhookRequest,
  ListWebhooksReply,
  ListWebhooksRequest,
  RegisterWebhookReply,
  RegisterWebhookRequest,
} from './generated/tokensvc/v1/push';

/**
 * Every NATS subject of the platform, in one place. Subjects are versioned (`.v1`); a breaking
 * change to a message gets a new subject so old and new replicas can run side by side.
 * Payloads are the proto3 JSON mapping of the generated types (ts-proto toJSON/fromJSON).
 */
export const SERVICES = ['token-data', 'indexer', 'quote', 'status-tracker'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface Codec<T> {
  fromJSON(object: unknown): T;
  toJSON(message: T): unknown;
}

export interface RpcContract<Req, Rep> {
  readonly subject: string;
  /** the service that answers; its replicas share the subject through a queue group of this name */
  readonly service: ServiceName;
  readonly request: Codec<Req>;
  readonly reply: Codec<Rep>;
  /**
   * Whether a call may reach the service twice with the same effect as once, so the caller may
   * send it again to another replica when the first is lost (NatsRpcClient): every read, and the
   * order submission (the relayer keeps one submission per order and signature). Not the webhook
   * registration or deletion: a second one would answer differently. Unset: never sent twice.
   */
  readonly idempotent?: boolean;
}

function contract<Req, Rep>(
  subject: string,
  service: ServiceName,
  request: Codec<Req>,
  reply: Codec<Rep>,
  idempotent = true,
): RpcContract<Req, Rep> {
  return { subject, service, request, reply, idempotent };
}

export const RPC = {
  pingTokenData: contract('token-data.ping.v1', 'token-data', PingRequest, PingReply),
  pingIndexer: contract('indexer.ping.v1', 'indexer', PingRequest, PingReply),
  pingQuote: contract('quote.ping.v1', 'quote', PingRequest, PingReply),
  pingStatusTracker: contract('status-tracker.ping.v1', 'status-tracker', PingRequest, PingReply),
  listNetworks: contract('token-data.networks.list.v1', 'token-data', ListNetworksRequest, ListNetworksReply),
  listPlatforms: contract('token-data.platforms.list.v1', 'token-data', ListPlatformsRequest, ListPlatformsReply),
  listTokens: contract('token-data.tokens.list.v1', 'token-data', ListTokensRequest, ListTokensReply),
  account: contract('token-data.account.get.v1', 'token-data', AccountRequest, AccountReply),
  tokenHistory: contract('token-data.tokens.history.v1', 'token-data', TokenHistoryRequest, TokenHistoryReply),
  tokenTransactions: contract('token-data.tokens.transactions.v1', 'token-data', TokenTransactionsRequest, TokenTransactionsReply),
  tokenMetrics: contract('token-data.tokens.metrics.v1', 'token-data', TokenMetricsRequest, TokenMetricsReply),
  tokenHolders: contract('token-data.tokens.holders.v1', 'token-data', TokenHoldersRequest, TokenHoldersReply),
  estimate: contract('quote.portal.estimate.v1', 'quote', EstimateRequest, EstimateReply),
  approval: contract('quote.approval.get.v1', 'quote', ApprovalRequest, ApprovalReply),
  buildOrder: contract('quote.portal.build.v1', 'quote', BuildOrderRequest, OrderReply),
  // GET /v2/portal/multi and its estimate: several inputs into one output
  buildMultiOrder: contract('quote.portal.multi.v1', 'quote', MultiOrderRequest, MultiOrderReply),
  // Sent twice, the relayer answers the one submission (relay_submissions: one row per order, the
  // same signature answers its state): a retry never relays twice.
  submitOrder: contract('quote.portal.submit.v1', 'quote', SubmitOrderRequest, StoredOrderReply),
  orderStatus: contract('quote.portal.status.v1', 'quote', OrderStatusRequest, StoredOrderReply),
  crossChainStatus: contract('status-tracker.portal.status.v1', 'status-tracker', CrossChainStatusRequest, CrossChainStatusReply),
  crossChainStatusEvents: contract(
    'status-tracker.portal.status-events.v1',
    'status-tracker',
    CrossChainStatusEventsRequest,
    CrossChainStatusEventsReply,
  ),
  registerWebhook: contract('status-tracker.webhooks.register.v1', 'status-tracker', RegisterWebhookRequest, RegisterWebhookReply, false),
  listWebhooks: contract('status-tracker.webhooks.list.v1', 'status-tracker', ListWebhooksRequest, ListWebhooksReply),
  deleteWebhook: contract('status-tracker.webhooks.delete.v1', 'status-tracker', DeleteWebhookRequest, DeleteWebhookReply, false),
} as const;

export type RpcName = keyof typeof RPC;
export type RequestOf<C> = C extends RpcContract<infer Req, unknown> ? Req : never;
export type ReplyOf<C> = C extends RpcContract<unknown, infer Rep> ? Rep : never;

export const PING_BY_SERVICE: Record<ServiceName, RpcContract<PingRequest, PingReply>> = {
  'token-data': RPC.pingTokenData,
  indexer: RPC.pingIndexer,
  quote: RPC.pingQuote,
  'status-tracker': RPC.pingStatusTracker,
};

/** JetStream streams and subjects for events that must not be lost (de-duplicated by message id). */
export const STREAMS = {
  chain: { name: 'CHAIN_EVENTS', subjects: ['chain.>'] },
  crossChainStatus: { name: 'CROSS_CHAIN_STATUS', subjects: ['cross-chain-status.>'] },
} as const;

/**
 * Subjects of the indexer's chain events inside STREAMS.chain (`prefix` is `chain` unless a test
 * isolates itself with its own stream and prefix). Payloads: PoolStateChanged, BlockFinalized,
 * IndexedHead (after each publishing run: the pool states before it are the state at that block).
 */
export const CHAIN_EVENT_SUBJECTS = {
  poolState: (network: string, prefix = 'chain'): string => `${prefix}.${network}.pool-state.v1`,
  blockFinalized: (network: string, prefix = 'chain'): string => `${prefix}.${network}.block-finalized.v1`,
  indexedHead: (network: string, prefix = 'chain'): string => `${prefix}.${network}.indexed-head.v1`,
} as const;

/**
 * Subject of one cross-chain order's status events inside STREAMS.crossChainStatus (`prefix` is
 * `cross-chain-status` unless a test isolates itself). Payload: CrossChainStatusEvent. Order ids
 * (UUIDs) and tx hashes (0x + hex) hold no `.`, `*` or `>`, so each pair is one subject.
 */
/** Limits of STREAMS.crossChainStatus, the same for whichever side creates it (tracker or gateway). */
export const CROSS_CHAIN_STATUS_STREAM_LIMITS = {
  /** a relay re-publishing after a crash within this window is de-duplicated by message id */
  duplicateWindowMs: 10 * 60_000,
  /** events are kept a week (a stream is followed live; the outbox table keeps them too) */
  maxAgeMs: 7 * 24 * 3_600_000,
} as const;

export const CROSS_CHAIN_STATUS_SUBJECTS = {
  event: (orderId: string, txHash: string, prefix = 'cross-chain-status'): string => `${prefix}.v1.${orderId}.${txHash}`,
  all: (prefix = 'cross-chain-status'): string => `${prefix}.v1.>`,
} as const;
