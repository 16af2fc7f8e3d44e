import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NatsRpcClient } from '@tokensvc/transport';
import type { CallerInfo } from '../access/access-policy';

/** What a served endpoint handler gets besides its validated query. */
export interface CallContext {
  readonly rpc: NatsRpcClient;
  readonly caller: CallerInfo | undefined;
  readonly requestId: string;
  /** the client's address as the gateway resolved it (TRUSTED_PROXIES) */
  readonly clientIp: string;
  /** the anonymous client's budget key: its IPv4 address or IPv6 prefix (limits/client-address.ts) */
  readonly clientKey: string;
  /** the raw exchange, for the few handlers that answer other than JSON (the SSE stream) */
  readonly req: FastifyRequest;
  readonly reply: FastifyReply;
  /** whether the caller's tier sees the paid-only token metrics (absent: it does not) */
  readonly paidData?: boolean;
}
