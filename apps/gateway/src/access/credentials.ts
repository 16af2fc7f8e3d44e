import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The key sent in `Authorization`: `Bearer <key>` (the documented form) or the bare key.
 * Returns undefined when the header is absent or blank.
 */
export function credentialFrom(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  // One whitespace then the rest (trimmed below): `\s+(.+)` could split a run of spaces many ways.
  const m = /^bearer\s(.*)$/i.exec(value);
  return m ? m[1]!.trim() : value;
}

/**
 * Constant-time comparison of two secrets of any length: both sides are hashed to 32 bytes first,
 * so a length mismatch neither throws nor shows in the timing.
 */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
