import { createHmac } from 'node:crypto';
import { newWebhookSecret, signPayload, verifySignature } from './webhook-signature';

describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const body = '{"id":"a:b:1","seq":1}';

  it('is the hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret', () => {
    const want = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(signPayload(secret, 1700000000, body)).toBe(`sha256=${want}`);
    // A fixed vector, so a receiver in any language can check its implementation against it.
    expect(signPayload('whsec_test', 1700000000, '{}')).toBe(
      `sha256=${createHmac('sha256', 'whsec_test').update('1700000000.{}').digest('hex')}`,
    );
  });

  it('verifies what it signed, within the tolerance, and nothing else', () => {
    const ts = 1700000000;
    const sig = signPayload(secret, ts, body);
    expect(verifySignature(secret, sig, String(ts), body, ts + 10)).toBe(true);
    expect(verifySignature(secret, sig, String(ts), `${body} `, ts)).toBe(false);
    expect(verifySignature('whsec_other', sig, String(ts), body, ts)).toBe(false);
    expect(verifySignature(secret, sig, String(ts + 1), body, ts)).toBe(false);
    expect(verifySignature(secret, sig, String(ts), body, ts + 301)).toBe(false);
    expect(verifySignature(secret, sig.slice(0, -1), String(ts), body, ts)).toBe(false);
    expect(verifySignature(secret, undefined, String(ts), body, ts)).toBe(false);
    expect(verifySignature(secret, sig, 'soon', body, ts)).toBe(false);
  });

  it('makes a new random secret each time', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});
