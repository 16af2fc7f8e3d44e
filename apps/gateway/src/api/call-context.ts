import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NatsRpcClient } from '@tokensvc/transport';
import type { CallerInfo } from '../access/access-policy';

/** What a served endpoint handler gets besides its validated query. */
export interface CallContext {
  readonly rpc: NatsRpcClient;
  readonly caller: CallerInfo | undefined;
  readonly requestId: string;
  /** the anonymous client's budget key: its IPv4 address or IPv6 prefix (limits/client-address.ts) */
  readonly clientKey: string;
  /** the raw exchange, for the few handlers that answer other than JSON (the SSE stream) */
  readonly req: FastifyRequest;
  readonly reply: FastifyReply;
  /** whether the caller's tier sees the paid-only token metrics (absent: it does not) */
  readonly paidData?: boolean;
}

/**
 * Who the caller is for budgets and ownership (issue 16): its API key, or for an anonymous caller
 * its budget key (an IPv4 address or an IPv6 prefix, so one client's rotating addresses are one
 * caller). Used for the relayed caller of POST /v2/portal, status stream slots and webhook owners.
 */
export function callerIdentity({ caller, clientKey }: Pick<CallContext, 'caller' | 'clientKey'>): string {
  return caller?.key ? `key:${caller.key.id}` : `ip:${clientKey}`;
}
