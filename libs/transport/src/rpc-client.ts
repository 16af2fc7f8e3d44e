import { randomUUID } from 'node:crypto';
import { connect, ErrorCode as NatsErrorCode, JSONCodec, type Msg, type NatsConnection, type NatsError } from 'nats';
import { natsConnectOptions } from '@tokensvc/config';
import { ErrorCode, isRpcErrorPayload, type RpcContract } from '@tokensvc/messages';
import { bodyOfReply, bodyViewSubject, type BodyView, type EncodedBody } from './reply-body';
import { retryOnce } from './retry-once';
import { tracedRequest } from './telemetry/nats-trace';

/** A failed call, with a code from the closed set the gateway maps to HTTP statuses. */
export class RpcCallError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Nobody listens on the subject (NATS "no responders"). */
class NoResponders extends RpcCallError {}

const json = JSONCodec<unknown>();

/** Nest's NATS transport packet shapes (its JSON serializer), so Nest handlers answer these calls. */
interface NestReply {
  id?: string;
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
}

/**
 * Request/reply over core NATS with a timeout on every call. It fails fast with UNAVAILABLE when
 * the bus is down or nobody listens (NATS "no responders"), and with TIMEOUT when the service
 * does not answer in time: a caller never hangs.
 */
export class NatsRpcClient {
  private nc: NatsConnection | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly defaultTimeoutMs: number,
    private readonly name = 'tokensvc-rpc',
    /** when an idempotent call is sent again (see `attempts`) */
    private readonly retry: { hedgeAfterMs?: number; pauseMs?: number } = {},
  ) {}

  /** Starts connecting in the background; calls made before the bus is reachable fail with UNAVAILABLE. */
  start(): Promise<void> {
    this.connecting ??= this.connectLoop();
    return this.connecting;
  }

  get connected(): boolean {
    return this.nc !== undefined && !this.nc.isClosed() && this.up;
  }

  private up = false;

  private async connectLoop(): Promise<void> {
    while (!this.closed) {
      try {
        const nc = await connect({
          ...natsConnectOptions(this.url),
          name: this.name,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 250,
          timeout: 2000,
          pingInterval: 5000,
        });
        this.nc = nc;
        this.up = true;
        void this.watch(nc);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'staleConnection') this.up = false;
      if (s.type === 'reconnect') this.up = true;
    }
  }

  async call<Req, Rep>(contract: RpcContract<Req, Rep>, request: Req, timeoutMs = this.defaultTimeoutMs): Promise<Rep> {
    return this.replyOf(contract, await this.attempts(contract, request, timeoutMs));
  }

  /**
   * A call whose answer goes to an HTTP client as it is: asks the service for the response body in
   * `view` on the view's subject (see reply-body.ts) and gives it as bytes, or the decoded reply
   * when the service answered the usual packet instead. A service that does not listen on the view
   * subjects (a replica older than them) is asked on the plain subject. Errors are thrown as by `call`.
   */
  async callBody<Req, Rep>(
    contract: RpcContract<Req, Rep>,
    request: Req,
    view: BodyView,
    timeoutMs = this.defaultTimeoutMs,
  ): Promise<{ body: EncodedBody } | { reply: Rep }> {
    let msg: Msg;
    try {
      msg = await this.attempts(contract, request, timeoutMs, bodyViewSubject(contract.subject, view));
    } catch (e) {
      if (!(e instanceof NoResponders)) throw e;
      msg = await this.attempts(contract, request, timeoutMs);
    }
    const body = bodyOfReply(msg.data, msg.headers);
    return body ? { body } : { reply: this.replyOf(contract, msg) };
  }

  /**
   * The request, sent a second time to another replica when the contract is idempotent and the
   * first finds no replica or no answer comes back within `retry.hedgeAfterMs` (default: half the
   * deadline; a replica that died with the request): the deadline stays the caller's. Others are
   * sent once: a lost one answers UNAVAILABLE or TIMEOUT (503/504) and is never repeated blindly.
   */
  private attempts(contract: RpcContract<unknown, unknown>, request: unknown, timeoutMs: number, subject = contract.subject): Promise<Msg> {
    if (contract.idempotent !== true) return this.request(contract, request, timeoutMs, subject);
    return retryOnce((ms) => this.request(contract, request, ms, subject), {
      deadlineMs: timeoutMs,
      hedgeAfterMs: this.retry.hedgeAfterMs ?? timeoutMs / 2,
      pauseMs: this.retry.pauseMs ?? 100,
      retryable: (e) => e instanceof NoResponders,
    }).catch((e: unknown) => {
      // the second attempt only had what was left of the deadline: the caller waited all of it
      if (e instanceof RpcCallError && e.code === ErrorCode.ERROR_CODE_TIMEOUT)
        throw new RpcCallError(
          ErrorCode.ERROR_CODE_TIMEOUT,
          `${contract.service} service did not answer within ${timeoutMs} ms; retry shortly`,
        );
      throw e;
    });
  }

  private async request(
    contract: RpcContract<unknown, unknown>,
    request: unknown,
    timeoutMs: number,
    subject = contract.subject,
  ): Promise<Msg> {
    const nc = this.nc;
    if (!nc || !this.connected)
      throw new RpcCallError(
        ErrorCode.ERROR_CODE_UNAVAILABLE,
        `message bus unavailable: cannot reach NATS for ${contract.service}; retry shortly`,
      );
    const packet = { pattern: contract.subject, data: contract.request.toJSON(request), id: randomUUID() };
    try {
      // a client span; the trace context and request id travel in the message headers
      return await tracedRequest(subject, contract.service, (headers) =>
        nc.request(subject, json.encode(packet), { timeout: timeoutMs, headers }),
      );
    } catch (e) {
      const code = (e as NatsError).code;
      if (code === NatsErrorCode.NoResponders)
        throw new NoResponders(
          ErrorCode.ERROR_CODE_UNAVAILABLE,
          `${contract.service} service unavailable: no replica is answering; retry shortly`,
        );
      if (code === NatsErrorCode.Timeout)
        throw new RpcCallError(
          ErrorCode.ERROR_CODE_TIMEOUT,
          `${contract.service} service did not answer within ${timeoutMs} ms; retry shortly`,
        );
      throw new RpcCallError(ErrorCode.ERROR_CODE_UNAVAILABLE, `message bus error calling ${contract.service}: ${(e as Error).message}`);
    }
  }

  private replyOf<Rep>(contract: RpcContract<unknown, Rep>, msg: Msg): Rep {
    const reply = json.decode(msg.data) as NestReply;
    if (reply.err !== undefined && reply.err !== null) {
      if (isRpcErrorPayload(reply.err)) throw new RpcCallError(reply.err.code, reply.err.message);
      throw new RpcCallError(ErrorCode.ERROR_CODE_INTERNAL, `${contract.service} failed to answer`);
    }
    return contract.reply.fromJSON(reply.response);
  }

  async close(): Promise<void> {
    this.closed = true;
    const nc = this.nc;
    this.nc = undefined;
    if (nc && !nc.isClosed()) await nc.drain().catch(() => nc.close());
  }
}
