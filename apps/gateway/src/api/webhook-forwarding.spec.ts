import { createHash } from 'node:crypto';
import { newOwnerToken, webhookOwner } from './webhook-forwarding';

describe('webhookOwner', () => {
  const key = { id: '0b5e4d3c-2a19-4f08-9e7d-6c5b4a392817', displayPrefix: 'tsk_live_ab', tier: 'paid' as const, rateLimitPerMinute: null };

  it("is the caller's API key id, or the hash of the owner token presented (which wins over a key)", () => {
    expect(webhookOwner({ caller: { tier: 'paid', key } }, undefined)).toBe(`key:${key.id}`);
    const token = newOwnerToken();
    expect(token).toMatch(/^0x[0-9a-f]{64}$/);
    const owner = `token:${createHash('sha256').update(token).digest('hex')}`;
    expect(webhookOwner({ caller: { tier: 'anonymous', key: undefined } }, token)).toBe(owner);
    expect(webhookOwner({ caller: { tier: 'anonymous', key: undefined } }, token.toUpperCase().replace('0X', '0x'))).toBe(owner);
    expect(webhookOwner({ caller: { tier: 'paid', key } }, token)).toBe(owner);
    expect(newOwnerToken()).not.toBe(token);
  });

  it('is never the client address: without a key and without a token, the request is a 400 saying what to send', () => {
    // everyone behind one NAT or IPv6 /64 shares an address: it proves no ownership
    expect(() => webhookOwner({ caller: { tier: 'anonymous', key: undefined } }, undefined)).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/ownerToken is required without an API key/) }),
    );
    expect(() => webhookOwner({ caller: undefined }, undefined)).toThrow(expect.objectContaining({ status: 400 }));
  });
});
