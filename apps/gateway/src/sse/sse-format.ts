/** Server-Sent Events wire format (WHATWG HTML, "Server-sent events"): the few pieces the status stream writes and reads. */

/** One event: `id` and a single `data` line (JSON has no raw newlines), then a blank line. */
export function sseEvent(id: number, data: unknown): string {
  return `id: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by clients, keeps the connection busy for proxies. */
export function sseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

/** How long a client waits before reconnecting after a dropped connection. */
export function sseRetry(ms: number): string {
  return `retry: ${ms}\n\n`;
}

export type LastEventId = { ok: true; value: number | undefined } | { ok: false; message: string };

/**
 * The resume point: the Last-Event-ID header (an EventSource sends it on reconnect) wins over the
 * `lastEventId` parameter; either must be a non-negative integer this stream sent (an event id).
 */
export function lastEventId(header: string | string[] | undefined, param: number | undefined): LastEventId {
  if (header === undefined) return { ok: true, value: param };
  const raw = Array.isArray(header) ? (header[0] ?? '') : header;
  const trimmed = raw.trim();
  if (trimmed === '') return { ok: true, value: param };
  if (!/^\d{1,9}$/.test(trimmed))
    return {
      ok: false,
      message: `invalid Last-Event-ID header "${raw.slice(0, 40)}": must be an event id of this stream (a non-negative integer)`,
    };
  return { ok: true, value: Number(trimmed) };
}
