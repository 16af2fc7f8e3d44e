import { API_KEY_PREFIX, displayPrefix, generateApiKey, hashApiKey, isApiKeyFormat } from './api-key';

describe('API keys', () => {
  it('are prefixed base62 strings, all different', () => {
    const keys = Array.from({ length: 2000 }, generateApiKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) {
      expect(k.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(isApiKeyFormat(k)).toBe(true);
    }
    // Every base62 character shows up with roughly equal frequency (no modulo bias to speak of).
    const counts = new Map<string, number>();
    for (const k of keys) for (const c of k.slice(API_KEY_PREFIX.length)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (keys.length * 32) / 62;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.2);
  });

  it('are stored as a SHA-256 and shown by a short prefix', () => {
    const k = generateApiKey();
    expect(hashApiKey(k)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(k)).toBe(hashApiKey(k));
    expect(displayPrefix(k)).toBe(k.slice(0, 15));
    expect(isApiKeyFormat(`${k}x`)).toBe(false);
    expect(isApiKeyFormat(k.replace(API_KEY_PREFIX, 'tsk_test_'))).toBe(false);
  });
});
