import { Catch, HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RpcCallError } from '@tokensvc/transport';
import { rpcErrorToHttp } from './rpc-status';

const REASONS: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 413: 'Payload Too Large',
  415: 'Unsupported Media Type', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/**
 * Every error answers `{ statusCode, error, message }`. Internal failures keep their details in
 * the log (with the request id) and give the client only the request id to quote.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const req = ctx.getRequest<FastifyRequest>();
    const http = exception instanceof RpcCallError ? rpcErrorToHttp(exception) : exception;
    let status = HttpStatus.INTERNAL_SERVER_ERROR;
    let message = `internal error; quote request id ${req.id} when reporting it`;
    if (http instanceof HttpException) {
      status = http.getStatus();
      const body = http.getResponse();
      const m = typeof body === 'string' ? body : (body as { message?: unknown }).message;
      message = Array.isArray(m) ? m.join('; ') : typeof m === 'string' ? m : http.message;
      if (status === 404 && message.startsWith('Cannot GET')) message = `no route ${req.method} ${req.url.split('?')[0]}; see /docs for the routes`;
    } else if (isFastifyClientError(exception)) {
      status = exception.statusCode;
      message = exception.message;
    }
    if (status >= 500) this.logger.error({ msg: 'request failed', requestId: req.id, status, err: exception instanceof Error ? exception.message : String(exception) });
    void reply.status(status).send({ statusCode: status, error: REASONS[status] ?? 'Error', message });
  }
}

function isFastifyClientError(e: unknown): e is { statusCode: number; message: string } {
  const s = (e as { statusCode?: unknown })?.statusCode;
  return typeof s === 'number' && s >= 400 && s < 500;
}
