import { ErrorCode } from '@tokensvc/messages';
import { checkOwner } from './register-webhook.usecase';

describe('webhook owner (set by the gateway)', () => {
  it('accepts an API key id, an owner token hash, or a client address of earlier versions (IPv4, IPv6, a prefix)', () => {
    for (const o of [
      'key:0b5e4d3c-2a19-4f08-9e7d-6c5b4a392817',
      `token:${'ab'.repeat(32)}`,
      'ip:203.0.113.7',
      'ip:2001:db8::1',
      'ip:::ffff:127.0.0.1',
      'ip:2001:db8:1:2::/64',
    ])
      expect(checkOwner(o)).toBe(o);
  });

  it('refuses a request without one (no webhook without an owner) or with anything else', () => {
    for (const o of [
      '',
      'anonymous',
      'key:',
      'ip:',
      'user:1',
      'key:a b',
      `key:${'x'.repeat(101)}`,
      'token:',
      `token:${'AB'.repeat(32)}`,
      `token:${'ab'.repeat(31)}`,
    ]) {
      expect(() => checkOwner(o)).toThrow(expect.objectContaining({ code: ErrorCode.ERROR_CODE_BAD_REQUEST }));
    }
  });
});
