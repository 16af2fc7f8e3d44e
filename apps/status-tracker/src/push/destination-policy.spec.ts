import { DestinationError, DestinationPolicy, hostMatches, type ResolvedAddress } from './destination-policy';

/** A resolver answering from a table that a test can change (DNS rebinding). */
function fakeDns(table: Record<string, string[]>): (host: string) => Promise<ResolvedAddress[]> {
  return async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const lookupOnce = (lookup: ReturnType<DestinationPolicy['lookupFor']>, all: boolean): Promise<unknown> =>
  new Promise((resolve, reject) =>
    lookup('ignored', { all }, (e: Error | null, address: unknown, family?: number) =>
      e ? reject(e) : resolve(all ? address : { address, family }),
    ),
  );

describe('webhook destination policy', () => {
  const dns: Record<string, string[]> = {
    'hooks.example.com': ['93.184.216.34'],
    'api.partner.io': ['2606:4700::6810:84e5', '104.16.132.229'],
    'internal.partner.io': ['10.0.0.8'],
    'mixed.partner.io': ['93.184.216.34', '127.0.0.1'],
    localhost: ['127.0.0.1', '::1'],
    'dev.local': ['192.168.1.20'],
  };
  const policy = new DestinationPolicy(
    {
      allowedHosts: [
        'hooks.example.com',
        '*.partner.io',
        'localhost',
        '127.0.0.1',
        '10.1.2.3',
        '[::1]',
        '169.254.169.254',
        'dev.local',
        '[::ffff:7f00:1]',
      ],
      httpHosts: ['dev.local'],
      privateHosts: ['dev.local'],
    },
    fakeDns(dns),
  );
  const refused = async (url: string): Promise<string> => {
    try {
      await policy.check(url);
    } catch (e) {
      expect(e).toBeInstanceOf(DestinationError);
      return (e as Error).message;
    }
    throw new Error(`${url} was accepted`);
  };

  it('matches host patterns: exact, *.domain (subdomains only), *', () => {
    expect(hostMatches('a.partner.io', ['*.partner.io'])).toBe(true);
    expect(hostMatches('a.b.partner.io', ['*.partner.io'])).toBe(true);
    expect(hostMatches('partner.io', ['*.partner.io'])).toBe(false);
    expect(hostMatches('evilpartner.io', ['*.partner.io'])).toBe(false);
    expect(hostMatches('partner.io.evil.com', ['*.partner.io'])).toBe(false);
    expect(hostMatches('HOOKS.example.com.', ['hooks.example.com'])).toBe(true);
    expect(hostMatches('anything', ['*'])).toBe(true);
    expect(hostMatches('anything', [])).toBe(false);
  });

  it('accepts https URLs on allowed hosts that resolve to public addresses only', async () => {
    expect((await policy.check('https://hooks.example.com/tokensvc?x=1#frag')).toString()).toBe('https://hooks.example.com/tokensvc?x=1');
    expect((await policy.check('https://api.partner.io:8443/h')).host).toBe('api.partner.io:8443');
  });

  it('refuses other schemes, plain http, credentials and hosts off the allow-list', async () => {
    expect(await refused('http://hooks.example.com/x')).toMatch(/must use https/);
    expect(await refused('ftp://hooks.example.com/x')).toMatch(/must use https, not ftp/);
    expect(await refused('javascript:alert(1)')).toMatch(/must use https/);
    expect(await refused('https://user:pw@hooks.example.com/x')).toMatch(/credentials/);
    expect(await refused('https://example.com/x')).toMatch(/not on this deployment's webhook allow-list/);
    expect(await refused('not a url')).toMatch(/absolute URL/);
    const closed = new DestinationPolicy({ allowedHosts: [], httpHosts: [], privateHosts: [] }, fakeDns(dns));
    await expect(closed.check('https://hooks.example.com/')).rejects.toThrow(/disabled on this deployment/);
  });

  it('refuses allowed hosts that are, or resolve to, non-public addresses', async () => {
    expect(await refused('https://127.0.0.1/x')).toMatch(/127\.0\.0\.1, a loopback address/);
    expect(await refused('https://2130706433/x')).toMatch(/loopback/); // the URL parser makes it 127.0.0.1
    expect(await refused('https://0x7f.1/x')).toMatch(/loopback/);
    expect(await refused('https://10.1.2.3/x')).toMatch(/RFC 1918/);
    expect(await refused('https://[::1]/x')).toMatch(/loopback/);
    expect(await refused('https://[::ffff:127.0.0.1]/x')).toMatch(/IPv4-mapped/);
    expect(await refused('https://169.254.169.254/latest/meta-data')).toMatch(/metadata/);
    expect(await refused('https://localhost/x')).toMatch(/loopback/);
    expect(await refused('https://internal.partner.io/x')).toMatch(/10\.0\.0\.8, a private \(RFC 1918\)/);
    // One bad address among good ones is enough to refuse.
    expect(await refused('https://mixed.partner.io/x')).toMatch(/127\.0\.0\.1/);
    expect(await refused('https://gone.partner.io/x')).toMatch(/does not resolve \(ENOTFOUND\)/);
  });

  it('lets hosts on the private list resolve to private addresses, over http when allowed', async () => {
    expect((await policy.check('http://dev.local:8080/hook')).port).toBe('8080');
  });

  it('judges the addresses again at connect time: a name rebound to a private address is refused', async () => {
    const table: Record<string, string[]> = { 'hooks.example.com': ['93.184.216.34'] };
    const p = new DestinationPolicy({ allowedHosts: ['hooks.example.com'], httpHosts: [], privateHosts: [] }, fakeDns(table));
    const url = await p.check('https://hooks.example.com/h');
    const lookup = p.lookupFor(url);
    expect(await lookupOnce(lookup, false)).toEqual({ address: '93.184.216.34', family: 4 });
    expect(await lookupOnce(lookup, true)).toEqual([{ address: '93.184.216.34', family: 4 }]);
    table['hooks.example.com'] = ['169.254.169.254'];
    await expect(lookupOnce(lookup, false)).rejects.toMatchObject({
      code: 'EWEBHOOKDESTINATION',
      message: expect.stringMatching(/metadata/),
    });
    table['hooks.example.com'] = ['93.184.216.34', '::1'];
    await expect(lookupOnce(lookup, true)).rejects.toMatchObject({ code: 'EWEBHOOKDESTINATION' });
  });
});
