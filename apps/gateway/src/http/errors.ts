import type { FastifyReply } from 'fastify';
import { defaultErrorCode, type ErrorBody, type ErrorCodeName } from '@tokensvc/api';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The one error body: `{ statusCode, error, message, code }`; the code defaults from the status. */
export function errorBody(status: number, message: string, code: ErrorCodeName = defaultErrorCode(status)): ErrorBody {
  return { statusCode: status, error: REASONS[status] ?? 'Error', message, code };
}

/** Answers an error from a hook (before Nest's filter is in play). */
export function sendError(reply: FastifyReply, status: number, message: string, code?: ErrorCodeName): FastifyReply {
  return reply.code(status).send(errorBody(status, message, code));
}

/** An error with an HTTP status (and optionally a code), thrown by gateway code and mapped by the error filter. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCodeName,
  ) {
    super(message);
  }
}
