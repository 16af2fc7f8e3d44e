/**
 * Opaque keyset cursor of GET /v3/tokens/transactions: the position (time, block, log index) of the
 * last record of a page, base64url-encoded. Records are ordered newest first.
 */
export interface ActivityPosition {
  timeMs: number;
  block: number;
  logIndex: number;
}

export function encodeCursor(p: ActivityPosition): string {
  return Buffer.from(`v1:${p.timeMs}:${p.block}:${p.logIndex}`).toString('base64url');
}

/** Returns undefined for anything that is not a cursor this service issued. */
export function decodeCursor(cursor: string): ActivityPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const m = /^v1:(\d{1,15}):(\d{1,15}):(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) return undefined;
  return { timeMs: Number(m[1]), block: Number(m[2]), logIndex: Number(m[3]) };
}
