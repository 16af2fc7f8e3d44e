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
  /** the Retry-After header (429, 503) */
  retryAfter?: string;
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

/** bodies kept for reuse (release()): a backfill's replies are tens of MB each, two or three in flight */
const SPARE_BODIES = 3;

export class HttpPoster {
  /** body buffers handed back by release(), reused for replies that fit */
  private readonly spare: Buffer[] = [];
  /** the full buffers this poster allocated for bodies (only those go back to `spare`) */
  private readonly owned = new WeakSet<ArrayBufferLike>();
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
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            'accept-encoding': 'gzip, deflate, br',
          },
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
          // An uncompressed body of a known length is copied straight into one (reused) buffer:
          // no list of socket chunks to concatenate, and no new tens-of-MB buffer per reply
          // (whose external memory made V8 run a full GC every few replies).
          const length = encoding === 'identity' ? Number(res.headers['content-length'] ?? NaN) : NaN;
          const into = Number.isSafeInteger(length) && length > 0 ? this.bodyBuffer(length) : undefined;
          body.on('data', (c: Buffer) => {
            if (into && size + c.length <= into.length) into.set(c, size);
            else chunks.push(c);
            size += c.length;
          });
          body.on('end', () => {
            if (settled) return;
            settled = true;
            const retryAfter = res.headers['retry-after'];
            if (into && size === length) return resolve({ status: res.statusCode ?? 0, body: into.subarray(0, size), retryAfter });
            // not the announced length: the bytes as they came (the caller sees the mismatch)
            const parts = into ? [into.subarray(0, Math.min(size, into.length)), ...chunks] : chunks;
            resolve({ status: res.statusCode ?? 0, body: parts.length === 1 ? parts[0]! : Buffer.concat(parts, size), retryAfter });
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

  /**
   * Hands a body back once nothing refers to it any more (not after its bytes were transferred to
   * another thread): the next reply that fits is read into it.
   */
  release(body: Buffer): void {
    const full = body.buffer;
    if (!this.owned.has(full) || full.byteLength === 0 || this.spare.length >= SPARE_BODIES) return;
    if (this.spare.some((b) => b.buffer === full)) return;
    this.spare.push(Buffer.from(full, 0, full.byteLength));
  }

  close(): void {
    this.agent.destroy();
  }

  /** A buffer of at least `length` bytes: a spare one that fits, else a new one (a little larger, so later replies fit too). */
  private bodyBuffer(length: number): Buffer {
    const i = this.spare.findIndex((b) => b.length >= length);
    if (i >= 0) return this.spare.splice(i, 1)[0]!;
    const b = Buffer.allocUnsafeSlow(Math.ceil(length * 1.25));
    this.owned.add(b.buffer);
    return b;
  }
}
