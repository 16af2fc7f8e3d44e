import type { FastifyReply } from 'fastify';
import type { ErrorBody } from '@tokensvc/api';

const REASONS: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 413: 'Payload Too Large',
  415: 'Unsupported Media Type', 429: 'Too Many Requests', 500: 'Internal Server Error', 501: 'Not Implemented', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** The one error body: `{ statusCode, error, message }`. */
export function errorBody(status: number, message: string): ErrorBody {
  return { statusCode: status, error: REASONS[status] ?? 'Error', message };
}

/** Answers an error from a hook (before Nest's filter is in play). */
export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send(errorBody(status, message));
}

/** An error with an HTTP status, thrown by gateway code and mapped by the error filter. */
export class GatewayError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}
