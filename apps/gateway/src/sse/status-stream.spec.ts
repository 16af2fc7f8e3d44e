import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CallContext } from '../api/call-context';
import { GatewayError } from '../http/errors';
import { DEFAULT_SSE_SETTINGS } from './sse-settings';
import type { StatusEventHub } from './status-event-hub';
import { STREAM_RETRY_AFTER_S, StatusStreams } from './status-stream';

describe('status streams over their bounds', () => {
  it('answer 429 with retry-after', async () => {
    // No stream may open at all: the first request meets the gateway-wide bound.
    const streams = new StatusStreams({} as StatusEventHub, { ...DEFAULT_SSE_SETTINGS, maxTotal: 0 });
    const headers: Record<string, string> = {};
    const reply = { header: (k: string, v: string) => ((headers[k.toLowerCase()] = v), reply) } as unknown as FastifyReply;
    const ctx = { req: { headers: {} } as FastifyRequest, reply, caller: undefined, clientKey: '192.0.2.1' } as unknown as CallContext;
    const refused = await streams.handler({ orderId: 'order-1', txHash: `0x${'cd'.repeat(32)}` }, ctx).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).status).toBe(429);
    expect((refused as GatewayError).message).toMatch(/status streams open, its maximum/);
    expect(headers['retry-after']).toBe(String(STREAM_RETRY_AFTER_S));
  });
});
