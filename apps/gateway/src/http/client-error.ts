import type { FastifyServerOptions } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from './errors';

/** What Node hands the `clientError` handler: a parser error with the bytes it was reading (a Buffer, whatever Fastify's types say). */
type ClientError = Parameters<NonNullable<FastifyServerOptions['clientErrorHandler']>>[0];

const MESSAGES: Record<number, string> = {
  400: 'malformed HTTP request',
  408: 'the request was not received in time',
  431: 'the request line and headers exceed 16 kB: send a shorter query or fewer headers',
};

/** Whether the bytes being parsed are a HEAD request (leading blank lines are allowed before the request line). */
function isHead(raw: unknown): boolean {
  if (!Buffer.isBuffer(raw)) return false;
  let i = 0;
  while (i < raw.length && (raw[i] === 0x0d || raw[i] === 0x0a)) i++;
  return raw.toString('latin1', i, i + 5) === 'HEAD ';
}

/**
 * Answers a request Node could not parse (Fastify's `clientErrorHandler`), before any route runs:
 * the gateway's error body `{ statusCode, error, message, code }`, and no body at all to a HEAD (bytes
 * after a HEAD answer would be read by the client as the start of the next response).
 */
export function clientErrorHandler(err: ClientError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(errorBody(status, MESSAGES[status] ?? 'malformed HTTP request'));
  const head = isHead(err.rawPacket);
  if (socket.writable) {
    // For a HEAD the content-length is that of the body a GET would have had (RFC 9110 §9.3.2).
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${head ? '' : body}`,
    );
  }
  socket.destroy(err);
}
