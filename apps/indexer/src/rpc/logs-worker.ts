/**
 * The logs worker thread: POSTs eth_getLogs requests and scans the replies (logs-scanner.ts),
 * so the HTTP body handling and the parsing of a backfill's millions of logs run on another core
 * than the indexer's decoding, derivation and COPY building. One string table for all requests:
 * the indexer's thread mirrors it from the replies, which it receives in order.
 */
import { parentPort } from 'node:worker_threads';
import { HttpPoster } from './http-post';
import { fetchLogsReply } from './logs-fetch';
import { StringTable } from './string-table';
import type { LogsRequest } from './logs-wire';

const port = parentPort;
if (!port) throw new Error('logs-worker.ts runs as a worker thread');
const posters = new Map<string, HttpPoster>();
const strings = new StringTable();

port.on('message', (req: LogsRequest) => {
  let poster = posters.get(req.url);
  if (!poster) posters.set(req.url, (poster = new HttpPoster(req.url)));
  fetchLogsReply(req, poster, strings, (reply, transfer) => port.postMessage(reply, transfer)).catch((e: unknown) =>
    port.postMessage({ id: req.id, kind: 'transport', message: `logs worker: ${(e as Error).message}`, timedOut: false }),
  );
});
