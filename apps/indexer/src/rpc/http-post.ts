/**
 * JSON-RPC POSTs over node:http(s) with keep-alive, the body kept as bytes (no string, no web
 * streams: fetch's body handling was a few percent of the indexer's CPU on large eth_getLogs
 * replies). gzip, deflate and br replies are decompressed (off the thread, by zlib).
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';

export interface PostResult {
  status: number;
  body: Buffer;
}

/** No HTTP answer: connection refused or reset, timeout, broken compression. */
export class PostError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

export class HttpPoster {
  private readonly url: URL;
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;

  constructor(url: string) {
    this.url = new URL(url);
    const secure = this.url.protocol === 'https:';
    if (!secure && this.url.protocol !== 'http:') throw new Error(`unsupported RPC URL protocol ${this.url.protocol}`);
    this.agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.request = secure ? https.request : http.request;
  }

  post(payload: string, timeoutMs: number): Promise<PostResult> {
    return new Promise<PostResult>((resolve, reject) => {
      const signal = AbortSignal.timeout(timeoutMs);
      let settled = false;
      const fail = (e: Error): void => {
        if (settled) return;
        settled = true;
        reject(signal.aborted ? new PostError(`timeout after ${timeoutMs} ms`, true) : new PostError(e.message, false));
      };
      const req = this.request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          signal,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'accept-encoding': 'gzip, deflate, br' },
        },
        (res) => {
          let body: Readable = res;
          const encoding = (res.headers['content-encoding'] ?? 'identity').toLowerCase();
          if (encoding === 'gzip' || encoding === 'x-gzip') body = res.pipe(zlib.createGunzip());
          else if (encoding === 'deflate') body = res.pipe(zlib.createInflate());
          else if (encoding === 'br') body = res.pipe(zlib.createBrotliDecompress());
          else if (encoding !== 'identity') {
            res.destroy();
            fail(new Error(`unsupported content-encoding ${encoding}`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          body.on('data', (c: Buffer) => {
            chunks.push(c);
            size += c.length;
          });
          body.on('end', () => {
            if (settled) return;
            settled = true;
            resolve({ status: res.statusCode ?? 0, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
          });
          body.on('error', fail);
          res.on('error', fail);
          // Closed before the whole response arrived (reset, timeout).
          res.on('close', () => {
            if (!res.complete) fail(new Error('connection closed before the response ended'));
          });
        },
      );
      req.on('error', fail);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
