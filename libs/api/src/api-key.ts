import { createHash, randomBytes } from 'node:crypto';

/**
 * API key format: `tsk_live_` + 32 base62 characters (about 190 bits of randomness). The key is
 * shown once; only its SHA-256 and a short display prefix are stored.
 */
export const API_KEY_PREFIX = 'tsk_live_';
const BODY_LENGTH = 32;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_PATTERN = /^tsk_live_[0-9A-Za-z]{32}$/;
/** characters of the key kept for display (`tsk_live_` + 6): enough to tell keys apart in a list */
const DISPLAY_LENGTH = API_KEY_PREFIX.length + 6;

export function generateApiKey(): string {
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(BODY_LENGTH * 2)) {
      // 248 = 62 * 4: rejecting bytes above it keeps every character equally likely.
      if (byte < 248 && body.length < BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  return `${API_KEY_PREFIX}${body}`;
}

export function isApiKeyFormat(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** SHA-256 hex of the key: what the database stores and looks up. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The part of a key safe to show and log. */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_LENGTH);
}
