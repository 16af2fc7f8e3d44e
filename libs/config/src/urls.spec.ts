import { ConfigError, loadServiceConfig, natsConnectOptions, redactUrl } from './index';

function problemsOf(env: Record<string, string>): string {
  try {
    loadServiceConfig('token-data', env);
  } catch (e) {
    if (e instanceof ConfigError) return `${e.message}\n${e.problems.join('\n')}`;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('credentials in URLs', () => {
  it('never prints the user and password of a malformed URL in a config error', () => {
    const text = problemsOf({
      NATS_URL: 'nats//bus-user:s3cret-nats@nats:4222',
      REDIS_URL: 'redis://:s3cret-redis@redis:6379:bad',
      DATABASE_URL: 'postgres://app:s3cret-pg@db:5432:x/tokensvc',
      NETWORKS: 'ethereum',
      RPC_URL_ETHEREUM: 'https://user:s3cret-rpc@rpc.example:bad/v2',
    });
    expect(text).toContain('NATS_URL must be a URL');
    expect(text).toContain('REDIS_URL must be a URL');
    expect(text).toContain('DATABASE_URL must be a URL');
    expect(text).toContain('RPC_URL_ETHEREUM must be a URL');
    expect(text).not.toMatch(/s3cret|bus-user/);
    expect(text).toContain('"redis://***@redis:6379:bad"');
  });

  it('redacts valid URLs too, and leaves URLs without credentials alone', () => {
    expect(redactUrl('nats://gateway:pw@nats:4222')).toBe('nats://***@nats:4222');
    expect(redactUrl('redis://:pw@redis:6379/0')).toBe('redis://***@redis:6379/0');
    expect(redactUrl('nats://127.0.0.1:4222')).toBe('nats://127.0.0.1:4222');
  });

  it('folds NATS_USER/NATS_PASSWORD and REDIS_PASSWORD into the URLs, unless the URL has its own', () => {
    const cfg = loadServiceConfig('quote', {
      NATS_URL: 'nats://nats:4222',
      NATS_USER: 'quote',
      NATS_PASSWORD: 'p@ss/word',
      REDIS_URL: 'redis://redis:6379',
      REDIS_PASSWORD: 'r3dis',
    });
    expect(natsConnectOptions(cfg.natsUrl)).toEqual({
      servers: 'nats://nats:4222',
      user: 'quote',
      pass: 'p@ss/word',
      inboxPrefix: '_INBOX.quote',
    });
    expect(new URL(cfg.redisUrl).password).toBe('r3dis');
    const own = loadServiceConfig('quote', { NATS_URL: 'nats://a:b@nats:4222', NATS_USER: 'quote', NATS_PASSWORD: 'x' });
    expect(natsConnectOptions(own.natsUrl)).toMatchObject({ user: 'a', pass: 'b' });
    // without credentials: the shared development bus, as before
    expect(natsConnectOptions(loadServiceConfig('quote', {}).natsUrl)).toEqual({ servers: 'nats://127.0.0.1:4222' });
  });

  it('wants NATS_USER and NATS_PASSWORD together', () => {
    expect(problemsOf({ NATS_USER: 'quote' })).toContain('NATS_USER and NATS_PASSWORD go together');
  });
});
