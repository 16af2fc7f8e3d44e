import { crossChainStatusRecord, type Endpoints, type ParsedQuery } from '@tokensvc/api';
import {
  ApprovalContext,
  EstimateContext,
  MultiOrderContext,
  OrderContext,
  RPC,
  Tx,
  type CrossChainStatusReply,
  type Explain,
  type ExplainAlternative,
  type ExplainHop,
  type OrderReply,
  type StoredOrderReply,
  type TypedData,
} from '@tokensvc/messages';
import { callerIdentity, type CallContext } from './call-context';

type Q<K extends keyof Endpoints> = ParsedQuery<Endpoints[K]['query']>;
type Json = Record<string, unknown>;

/** EIP-712 typed data as plain objects (proto carries them as Structs, already plain after fromJSON). */
function typedData(t: TypedData | undefined): { types: Json; domain: Json; value: Json } | undefined {
  if (!t) return undefined;
  return { types: (t.types ?? {}) as Json, domain: (t.domain ?? {}) as Json, value: (t.value ?? {}) as Json };
}

/** A uint256 parameter on the wire: proto has no uint256, so a decimal string (the quote service parses it back with the same domain rule). */
const wire = (amount: bigint | undefined): string | undefined => amount?.toString();

function approvalQuery(q: Q<'approval'>) {
  return { ...q, inputAmount: String(q.inputAmount), permitDeadline: wire(q.permitDeadline) };
}

type HopBody = Omit<ExplainHop, 'next'> & { next: HopBody[] };
const hopBody = (h: ExplainHop): HopBody => ({ ...h, next: h.next.map(hopBody) });
const alternativeBody = (a: ExplainAlternative | undefined) => (a ? { ...a, hops: a.hops.map(hopBody) } : undefined);

/** `explain` (explain=true) as plain objects. */
function explainBody(e: Explain | undefined) {
  return e
    ? {
        ...e,
        route: e.route.map(hopBody),
        bestSinglePath: alternativeBody(e.bestSinglePath),
        bestDirectPool: alternativeBody(e.bestDirectPool),
      }
    : undefined;
}

/** The spec's Order shape of a reply. */
function order(r: OrderReply | undefined): { context: Json & OrderContext; tx: Tx; signedOrder: ReturnType<typeof typedData> } {
  const context = r?.context ?? OrderContext.fromJSON({});
  return {
    context: { ...context, rawParams: context.rawParams as Json | undefined },
    tx: r?.tx ?? Tx.fromJSON({}),
    signedOrder: typedData(r?.signedOrder),
  };
}

/** The public record of a cross-chain status reply (also what the SSE stream sends). */
export function crossChainStatusBody(r: CrossChainStatusReply) {
  return crossChainStatusRecord({ ...r, context: r.context ? order({ context: r.context, tx: r.tx }).context : undefined });
}

const RELAY_STATUSES = ['quoted', 'pending', 'mined', 'reverted', 'expired'] as const;

/** A stored order plus its relaying state (POST /v2/portal, GET /v2/portal/status). */
function relayed(r: StoredOrderReply) {
  const relay = r.relay;
  const status = RELAY_STATUSES.find((s) => s === relay?.status) ?? 'quoted';
  return {
    ...order(r.order),
    status,
    statusReason: relay?.statusReason,
    txHash: relay?.txHash,
    txHashes: relay?.txHashes ?? [],
    blockNumber: relay?.blockNumber === undefined ? undefined : Number(relay.blockNumber),
    gasUsed: relay?.gasUsed,
    receivedAmount: relay?.receivedAmount,
    relayer: relay?.relayer,
  };
}

/**
 * Same-chain trading endpoints answered by the quote service: the validated query becomes the
 * request message (same field names), the reply is the spec's shape.
 */
export const TRADING_ENDPOINTS = {
  estimate: async (q: Q<'estimate'>, { rpc }: CallContext) => {
    const r = await rpc.call(RPC.estimate, { ...q, inputAmount: String(q.inputAmount) });
    return {
      outputToken: r.outputToken,
      outputAmount: r.outputAmount,
      minOutputAmount: r.minOutputAmount,
      outputTokenDecimals: r.outputTokenDecimals,
      context: r.context ?? EstimateContext.fromJSON({}),
      explain: explainBody(r.explain),
    };
  },
  approval: async (q: Q<'approval'>, { rpc }: CallContext) => {
    const r = await rpc.call(RPC.approval, approvalQuery(q));
    return { context: r.context ?? ApprovalContext.fromJSON({}), approve: r.approve, permit: typedData(r.permit) };
  },
  // The published variant's path for cross-chain orders: the same request and the same answer.
  approvalCrossChain: async (q: Q<'approvalCrossChain'>, { rpc }: CallContext) => {
    const r = await rpc.call(RPC.approval, approvalQuery(q));
    return { context: r.context ?? ApprovalContext.fromJSON({}), approve: r.approve, permit: typedData(r.permit) };
  },
  // the client its stored order counts against (OrderStore's per-client bound)
  portal: async (q: Q<'portal'>, ctx: CallContext) => {
    const r = await ctx.rpc.call(RPC.buildOrder, {
      ...q,
      inputAmount: String(q.inputAmount),
      permitDeadline: wire(q.permitDeadline),
      client: callerIdentity(ctx),
    });
    return { ...order(r), explain: explainBody(r.explain) };
  },
  // the caller the quote service counts: a key, or the client (an IPv6 client is its whole prefix)
  portalSubmit: async (q: Q<'portalSubmit'>, ctx: CallContext) =>
    relayed(await ctx.rpc.call(RPC.submitOrder, { orderId: q.orderId, signature: q.signature, caller: callerIdentity(ctx) })),
  portalStatus: async (q: Q<'portalStatus'>, { rpc }: CallContext) => relayed(await rpc.call(RPC.orderStatus, { orderId: q.orderId })),
  portalMulti: async (q: Q<'portalMulti'>, { rpc }: CallContext) => {
    const r = await rpc.call(RPC.buildMultiOrder, {
      ...q,
      inputAmounts: q.inputAmounts.map(String),
      permitSignatures: q.permitSignatures ?? [],
      permitDeadline: wire(q.permitDeadline),
      estimateOnly: false,
    });
    return { context: r.context ?? MultiOrderContext.fromJSON({}), tx: r.tx ?? Tx.fromJSON({}) };
  },
  estimateMulti: async (q: Q<'estimateMulti'>, { rpc }: CallContext) => {
    const r = await rpc.call(RPC.buildMultiOrder, {
      ...q,
      inputAmounts: q.inputAmounts.map(String),
      permitSignatures: [],
      estimateOnly: true,
    });
    return { context: r.context ?? MultiOrderContext.fromJSON({}) };
  },
  /** GET /v3/portal/status, answered by the status tracker (its NOT_FOUND is the 404). */
  crossChainStatus: async (q: Q<'crossChainStatus'>, { rpc }: CallContext) =>
    crossChainStatusBody(await rpc.call(RPC.crossChainStatus, { orderId: q.orderId, txHash: q.txHash })),
};
