import { RpcException } from '@nestjs/microservices';
import { ErrorCode, type RpcContract, type RpcErrorPayload } from '@tokensvc/messages';
import type { EncodedBody } from './reply-body';
import { rpcOutcome, RPC_METRICS } from './rpc-metrics';

/** A domain error a handler raises on purpose; it crosses NATS with its code and message. */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Wraps a NATS handler body: decodes the request with the contract's generated codec, runs the
 * use case, encodes the reply, and turns failures into RpcErrorPayloads. Unknown failures become
 * INTERNAL without their details (they are logged by the caller's logger instead).
 */
export async function handleRpc<Req, Rep>(
  contract: RpcContract<Req, Rep>,
  raw: unknown,
  run: (req: Req) => Promise<Rep> | Rep,
  onInternal?: (e: unknown) => void,
): Promise<unknown> {
  const end = RPC_METRICS.handled.startTimer({ subject: contract.subject });
  try {
    const reply = await run(contract.request.fromJSON(raw ?? {}));
    const json = contract.reply.toJSON(reply);
    end({ outcome: 'ok' });
    return json;
  } catch (e) {
    throw observed(end, rpcFailure(contract, e, onInternal));
  }
}

/**
 * handleRpc for a request that asked for the response body itself (bodyViewOf): `run` answers the
 * JSON bytes of the HTTP body (RpcReplySerializer sends them as they are); failures cross as usual.
 */
export async function handleRpcBody<Req, Rep>(
  contract: RpcContract<Req, Rep>,
  raw: unknown,
  run: (req: Req) => Promise<EncodedBody>,
  onInternal?: (e: unknown) => void,
): Promise<EncodedBody> {
  const end = RPC_METRICS.handled.startTimer({ subject: contract.subject });
  try {
    const body = await run(contract.request.fromJSON(raw ?? {}));
    end({ outcome: 'ok' });
    return body;
  } catch (e) {
    throw observed(end, rpcFailure(contract, e, onInternal));
  }
}

/** Records the failure's outcome (its error code) in nats_handler_duration_seconds. */
function observed(end: (labels: { outcome: string }) => void, failure: RpcException): RpcException {
  end({ outcome: rpcOutcome((failure.getError() as RpcErrorPayload).code) });
  return failure;
}

function rpcFailure(
  contract: Pick<RpcContract<unknown, unknown>, 'service' | 'subject'>,
  e: unknown,
  onInternal?: (e: unknown) => void,
): RpcException {
  if (e instanceof ServiceError) return new RpcException({ code: e.code, message: e.message } satisfies RpcErrorPayload);
  onInternal?.(e);
  return new RpcException({
    code: ErrorCode.ERROR_CODE_INTERNAL,
    message: `${contract.service} failed on ${contract.subject}`,
  } satisfies RpcErrorPayload);
}
