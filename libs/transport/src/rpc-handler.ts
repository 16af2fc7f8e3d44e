import { RpcException } from '@nestjs/microservices';
import { ErrorCode, type RpcContract, type RpcErrorPayload } from '@tokensvc/messages';
import type { EncodedBody } from './reply-body';

/** A domain error a handler raises on purpose; it crosses NATS with its code and message. */
export class ServiceError extends Error {
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
  }
}

/**
 * Wraps a NATS handler body: decodes the request with the contract's generated codec, runs the
 * use case, encodes the reply, and turns failures into RpcErrorPayloads. Unknown failures become
 * INTERNAL without their details (they are logged by the caller's logger instead).
 */
export async function handleRpc<Req, Rep>(contract: RpcContract<Req, Rep>, raw: unknown, run: (req: Req) => Promise<Rep> | Rep, onInternal?: (e: unknown) => void): Promise<unknown> {
  try {
    const reply = await run(contract.request.fromJSON(raw ?? {}));
    return contract.reply.toJSON(reply);
  } catch (e) {
    throw rpcFailure(contract, e, onInternal);
  }
}

/**
 * handleRpc for a request that asked for the response body itself (bodyViewOf): `run` answers the
 * JSON bytes of the HTTP body (RpcReplySerializer sends them as they are); failures cross as usual.
 */
export async function handleRpcBody<Req, Rep>(contract: RpcContract<Req, Rep>, raw: unknown, run: (req: Req) => Promise<EncodedBody>, onInternal?: (e: unknown) => void): Promise<EncodedBody> {
  try {
    return await run(contract.request.fromJSON(raw ?? {}));
  } catch (e) {
    throw rpcFailure(contract, e, onInternal);
  }
}

function rpcFailure(contract: Pick<RpcContract<unknown, unknown>, 'service' | 'subject'>, e: unknown, onInternal?: (e: unknown) => void): RpcException {
  if (e instanceof ServiceError) return new RpcException({ code: e.code, message: e.message } satisfies RpcErrorPayload);
  onInternal?.(e);
  return new RpcException({ code: ErrorCode.ERROR_CODE_INTERNAL, message: `${contract.service} failed on ${contract.subject}` } satisfies RpcErrorPayload);
}
