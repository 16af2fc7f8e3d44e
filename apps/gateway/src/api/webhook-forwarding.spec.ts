import { webhookOwner } from './webhook-forwarding';

describe('webhookOwner', () => {
  it("is the caller's API key id, else the anonymous client's budget key", () => {
    const key = { id: '0b5e4d3c-2a19-4f08-9e7d-6c5b4a392817', displayPrefix: 'tsk_live_ab', tier: 'paid' as const, rateLimitPerMinute: null };
    expect(webhookOwner({ caller: { tier: 'paid', key }, clientKey: '203.0.113.7' })).toBe(`key:${key.id}`);
    expect(webhookOwner({ caller: { tier: 'anonymous', key: undefined }, clientKey: '203.0.113.7' })).toBe('ip:203.0.113.7');
    // an IPv6 client owns its webhooks by prefix: its next privacy address still sees them
    expect(webhookOwner({ caller: undefined, clientKey: '2001:db8::/64' })).toBe('ip:2001:db8::/64');
  });
});
