/**
 * What the gateway makes of token-data's reply messages (data-forwarding.ts, tier-transform.ts in
 * apps/gateway): the message crosses NATS as proto3 JSON text and is decoded with the generated
 * codec; each token is the decoded message with `metrics` defaulted (the gateway's own spec pins its
 * mapping to that), the paid-only metrics removed for free keys, the balance fields after the token's.
 * The bodies token-data encodes itself (src/tokens/response-body.ts) must equal these, byte for byte.
 */
import { PAID_METRIC_FIELDS } from '@tokensvc/api';
import { AccountReply, ListTokensReply, Token, TokenHistoryReply, TokenMetrics, type BlockLabel, type Codec } from '@tokensvc/messages';
import { labelJson } from '../src/finality/finality';

export type View = 'paid' | 'free';
const PAID = new Set<string>(PAID_METRIC_FIELDS);

const wire = <T>(codec: Codec<T>, value: T): T => codec.fromJSON(JSON.parse(JSON.stringify(codec.toJSON(value))));

/** each token record ends with its network's block label (issue 23) */
function gatewayToken(t: Token, view: View, blocks: readonly BlockLabel[]): Record<string, unknown> {
  const metrics = t.metrics ?? TokenMetrics.fromJSON({});
  const block = labelJson(blocks.find((b) => b.network === t.network));
  const historyFromBlock = t.historyFromBlock === undefined ? null : Number(t.historyFromBlock);
  return {
    ...t,
    metrics: view === 'paid' ? metrics : Object.fromEntries(Object.entries(metrics).filter(([k]) => !PAID.has(k))),
    historyFromBlock,
    block,
  };
}

/** the /v2/account body the gateway sends for this reply message */
export function gatewayAccount(reply: AccountReply, view: View): string {
  const d = wire(AccountReply, reply);
  return JSON.stringify({
    totalQueried: d.totalQueried,
    balances: d.balances.map((b) => ({
      ...gatewayToken(b.token ?? Token.fromJSON({}), view, d.blocks),
      balance: b.balance,
      balanceUSD: b.balanceUsd,
      rawBalance: b.rawBalance,
    })),
  });
}

/** the /v2/tokens body the gateway sends for this reply message */
export function gatewayList(reply: ListTokensReply, view: View): string {
  const d = wire(ListTokensReply, reply);
  const { blocks, ...rest } = d;
  return JSON.stringify({ ...rest, tokens: rest.tokens.map((t) => gatewayToken(t, view, blocks)) });
}

/** the /v2/tokens/history body the gateway sends for this reply message (the decoded reply as it is) */
export function gatewayHistory(reply: TokenHistoryReply): string {
  const d = wire(TokenHistoryReply, reply);
  return JSON.stringify({ ...d, history: d.history.map((e) => ({ ...e, block: labelJson(e.block) })), block: labelJson(d.block) });
}
