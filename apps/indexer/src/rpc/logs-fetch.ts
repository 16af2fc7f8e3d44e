/**
 * One eth_getLogs request, from the POST to a LogsReply: what the logs worker does for the
 * indexer's thread (and what that thread does itself when the worker is off).
 */
import type { HttpPoster } from './http-post';
import { PostError } from './http-post';
import { scanLogsReply } from './logs-scanner';
import { transferList } from './scanned-logs';
import type { StringTable } from './string-table';
import type { LogsReply, LogsRequest } from './logs-wire';

/**
 * POSTs the request and hands the reply (with the buffers to transfer) to `send`. A scanned
 * reply is sent in the same synchronous step as its scan: replies carry the string table's
 * additions, so they must reach the receiver in the order they were scanned.
 */
export async function fetchLogsReply(
  req: LogsRequest,
  poster: HttpPoster,
  strings: StringTable,
  send: (reply: LogsReply, transfer: ArrayBuffer[]) => void,
): Promise<void> {
  let status: number;
  let body: Buffer;
  let retryAfter: string | undefined;
  try {
    ({ status, body, retryAfter } = await poster.post(req.payload, req.timeoutMs));
  } catch (e) {
    const timedOut = e instanceof PostError && e.timedOut;
    send({ id: req.id, kind: 'transport', message: (e as Error).message, timedOut }, []);
    return;
  }
  if (status < 200 || status >= 300) {
    send({ id: req.id, kind: 'http', status, text: body.toString('utf8', 0, Math.min(body.length, 1000)), retryAfter }, []);
    poster.release(body);
    return;
  }
  // The scanned logs keep no reference into the body (they copy what they need): it can be reused.
  const logs = scanLogsReply(body, strings, req.network);
  if (logs) {
    send({ id: req.id, kind: 'logs', logs }, transferList(logs));
    poster.release(body);
    return;
  }
  // The generic path gets its own copy of the bytes (transferred to the receiving thread).
  const bytes: Uint8Array = Uint8Array.prototype.slice.call(body);
  poster.release(body);
  send({ id: req.id, kind: 'raw', body: bytes }, [bytes.buffer as ArrayBuffer]);
}
