import { Client } from 'pg';

export interface PgOverlapWatch {
  /** the stack of every query issued on a pg Client while another query of that client was still waiting its turn */
  readonly overlaps: string[];
  /** puts pg's Client.prototype.query back */
  restore(): void;
}

/**
 * Records every `client.query()` issued on a client that still has a query queued, in this
 * process: what pg 8 warns about once per process ("Calling client.query() when the client is
 * already executing a query is deprecated") and pg 9 rejects. Counted on each call, so a test can
 * assert there was none (the warning itself is printed only for the first one).
 */
export function watchPgOverlaps(): PgOverlapWatch {
  const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const overlaps: string[] = [];
  proto.query = function (this: { _queryQueue?: unknown[] }, ...args: unknown[]): unknown {
    // pg's own condition for the warning (client.js: `this._queryQueue.length > 0`).
    if ((this._queryQueue?.length ?? 0) > 0)
      overlaps.push(new Error('client.query() while another query is queued on the same client').stack ?? '');
    return original.apply(this, args);
  };
  return {
    overlaps,
    restore: () => {
      proto.query = original;
    },
  };
}
