import { Catch, HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { QueryError, type ErrorCodeName } from '@tokensvc/api';
import { RpcCallError } from '@tokensvc/transport';
import { errorBody, GatewayError } from './errors';
import { RPC_HTTP_ERRORS } from './rpc-status';

/** Status and client-facing message of any thrown value; internal failures reveal only the request id. */
export function describeError(exception: unknown, req: FastifyRequest): { status: number; message: string; code?: ErrorCodeName } {
  if (exception instanceof QueryError) return { status: HttpStatus.BAD_REQUEST, message: exception.message, code: 'invalid_parameter' };
  if (exception instanceof GatewayError) return { status: exception.status, message: exception.message, code: exception.code };
  if (exception instanceof RpcCallError)
    return { status: RPC_HTTP_ERRORS[exception.code].status, message: exception.message, code: RPC_HTTP_ERRORS[exception.code].code };
  const http = exception;
  if (http instanceof HttpException) {
    const status = http.getStatus();
    const body = http.getResponse();
    const m = typeof body === 'string' ? body : (body as { message?: unknown }).message;
    let message = Array.isArray(m) ? m.join('; ') : typeof m === 'string' ? m : http.message;
    if (status === 404 && message.startsWith('Cannot '))
      message = `no route ${req.method} ${req.url.split('?')[0]}; see /docs for the routes`;
    return { status, message };
  }
  if (isFastifyClientError(exception)) return { status: exception.statusCode, message: exception.message };
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: `internal error; quote request id ${req.id} when reporting it` };
}

/**
 * Every error answers `{ statusCode, error, message, code }`. Internal failures keep their details in
 * the log (with the request id) and give the client only the request id to quote.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const req = ctx.getRequest<FastifyRequest>();
    const { status, message, code } = describeError(exception, req);
    // 501 is a declared-but-unserved endpoint, not a failure.
    if (status >= 500 && status !== 501)
      this.logger.error({
        msg: 'request failed',
        requestId: req.id,
        status,
        err: exception instanceof Error ? exception.message : String(exception),
      });
    void reply.status(status).send(errorBody(status, message, code));
  }
}

function isFastifyClientError(e: unknown): e is { statusCode: number; message: string } {
  const s = (e as { statusCode?: unknown })?.statusCode;
  return typeof s === 'number' && s >= 400 && s < 500;
}
