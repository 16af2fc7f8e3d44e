/**
 * The filler process's QuoteCalls: the quote service's request/reply subjects (the same messages
 * the gateway sends for GET /v2/portal and /v2/approval) over core NATS, in the packet shape of
 * the services' Nest transport. A minimal client of its own: this integration library may not use
 * the apps' transport library (lint boundaries), and needs only two calls with a timeout each.
 * Connecting happens in the background; until the bus is reachable every call fails at once and
 * the filler retries the deposit later.
 */
import { randomUUID } from 'node:crypto';
import { connect, ErrorCode as NatsErrorCode, JSONCodec, type NatsConnection, type NatsError } from 'nats';
import { natsConnectOptions, redactUrl } from '@tokensvc/config';
import { RPC, type RpcContract, isRpcErrorPayload } from '@tokensvc/messages';
import type { QuoteCalls } from './destination-swapper';

const json = JSONCodec<unknown>();

export interface NatsQuoteCalls extends QuoteCalls {
  close(): Promise<void>;
}

export function natsQuoteCalls(url: string, timeoutMs = 10_000): NatsQuoteCalls {
  let nc: NatsConnection | undefined;
  let closed = false;
  const connecting = (async () => {
    while (!closed) {
      try {
        nc = await connect({ ...natsConnectOptions(url), name: 'filler', maxReconnectAttempts: -1, reconnectTimeWait: 250, timeout: 2000 });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();

  async function call<Req, Rep>(contract: RpcContract<Req, Rep>, request: Req): Promise<Rep> {
    const conn = nc;
    if (!conn || conn.isClosed()) throw new Error(`quote service unreachable: not connected to NATS at ${redactUrl(url)}`);
    let reply: { response?: unknown; err?: unknown };
    try {
      const msg = await conn.request(contract.subject, json.encode({ pattern: contract.subject, data: contract.request.toJSON(request), id: randomUUID() }), { timeout: timeoutMs });
      reply = json.decode(msg.data) as { response?: unknown; err?: unknown };
    } catch (e) {
      const code = (e as NatsError).code;
      if (code === NatsErrorCode.NoResponders) throw new Error('quote service unavailable: no replica is answering');
      if (code === NatsErrorCode.Timeout) throw new Error(`quote service did not answer within ${timeoutMs} ms`);
      throw new Error(`message bus error calling the quote service: ${(e as Error).message}`);
    }
    if (reply.err !== undefined && reply.err !== null) {
      throw new Error(isRpcErrorPayload(reply.err) ? `${reply.err.code}: ${reply.err.message}` : 'the quote service failed to answer');
    }
    return contract.reply.fromJSON(reply.response);
  }

  return {
    buildOrder: (request) => call(RPC.buildOrder, request),
    approval: (request) => call(RPC.approval, request),
    async close() {
      closed = true;
      await connecting;
      const conn = nc;
      nc = undefined;
      if (conn && !conn.isClosed()) await conn.drain().catch(() => conn.close());
    },
  };
}
