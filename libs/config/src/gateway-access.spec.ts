import { ConfigError, isLocalOrigin, loadGatewayConfig } from './index';

const problems = (env: Record<string, string>): string => {
  try {
    loadGatewayConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.join('\n');
    throw e;
  }
  return '';
};

describe('gateway access config', () => {
  it('defaults: no trusted proxies, IPv6 per /64, admin API on loopback:3001 and off', () => {
    expect(loadGatewayConfig({})).toMatchObject({
      trustedProxies: [],
      rateLimitIpv6Prefix: 64,
      adminHost: '127.0.0.1',
      adminPort: 3001,
      adminToken: undefined,
    });
  });

  it('reads trusted proxies as CIDRs or addresses, and refuses anything else', () => {
    expect(loadGatewayConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8, fd00::/8,192.168.1.7 ' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.1.7',
    ]);
    const p = problems({ TRUSTED_PROXIES: '10.0.0.0/33,proxy.local,10.1/8,::1/129' });
    for (const bad of ['10.0.0.0/33', 'proxy.local', '10.1/8', '::1/129']) expect(p).toContain(`TRUSTED_PROXIES entry "${bad}"`);
  });

  it('refuses the old hop count with what replaced it', () => {
    expect(problems({ TRUST_PROXY_HOPS: '1' })).toMatch(/TRUST_PROXY_HOPS is no longer read: list the proxies in TRUSTED_PROXIES/);
  });

  it('refuses an admin token shorter than 32 characters at boot', () => {
    expect(problems({ ADMIN_TOKEN: 'a'.repeat(31) })).toMatch(/ADMIN_TOKEN must be at least 32 characters \(got 31\)/);
    expect(loadGatewayConfig({ ADMIN_TOKEN: 'a'.repeat(32) }).adminToken).toBe('a'.repeat(32));
  });

  it('bounds the IPv6 prefix', () => {
    expect(loadGatewayConfig({ RATE_LIMIT_IPV6_PREFIX: '56' }).rateLimitIpv6Prefix).toBe(56);
    expect(problems({ RATE_LIMIT_IPV6_PREFIX: '129' })).toMatch(/RATE_LIMIT_IPV6_PREFIX must be an integer between 16 and 128/);
  });
});

describe('CORS_ORIGINS', () => {
  it('is off by default, lists origins, accepts * alone, and refuses what is not an origin', () => {
    expect(loadGatewayConfig({}).corsOrigins).toEqual([]);
    expect(loadGatewayConfig({ CORS_ORIGINS: ' https://app.example.com, http://localhost:5173/ ' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(loadGatewayConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(() => loadGatewayConfig({ CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(
      /CORS_ORIGINS entry "https:\/\/app.example.com\/path" is not an origin/,
    );
    expect(() => loadGatewayConfig({ CORS_ORIGINS: '*,https://a.example' })).toThrow(/"\*" allows every origin/);
  });

  it('takes `local` (alone or beside origins) for any port of localhost, 127.0.0.1 and [::1]', () => {
    expect(loadGatewayConfig({ CORS_ORIGINS: 'local' }).corsOrigins).toEqual(['local']);
    expect(loadGatewayConfig({ CORS_ORIGINS: 'local, https://app.example.com' }).corsOrigins).toEqual(['local', 'https://app.example.com']);
    expect(() => loadGatewayConfig({ CORS_ORIGINS: '*,local' })).toThrow(/"\*" allows every origin/);
    expect(() => loadGatewayConfig({ CORS_ORIGINS: 'localhost' })).toThrow(
      /CORS_ORIGINS entry "localhost" is not an origin .*, local or \*/,
    );
    const local = ['http://localhost:5173', 'http://localhost', 'https://localhost:8443', 'http://127.0.0.1:3000', 'http://[::1]:5173'];
    const elsewhere = [
      'https://app.example.com',
      'http://localhost.example.com',
      'http://127.0.0.1.nip.io',
      'http://10.0.0.1:5173',
      'http://localhost:5173/',
    ];
    for (const o of local) expect(isLocalOrigin(o)).toBe(true);
    for (const o of [...elsewhere, 'file://', 'null', 'ws://localhost:5173']) expect(isLocalOrigin(o)).toBe(false);
  });
});
