import type { EnvReader } from './env';

/**
 * Credentials inside URLs (NATS_URL, REDIS_URL, DATABASE_URL, RPC URLs): folded in from separate
 * variables, split out for clients that take them apart, and hidden from anything printed.
 */

/** The URL with `user` / `password` set (percent-encoded), unless it already carries them. */
export function withCredentials(url: string, user: string | undefined, password: string | undefined): string {
  if (user === undefined && password === undefined) return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url; // reported by the URL check
  }
  if (u.username || u.password) return url;
  if (user !== undefined) u.username = encodeURIComponent(user);
  if (password !== undefined) u.password = encodeURIComponent(password);
  return u.toString();
}

/** What nats.js `connect` needs from a NATS URL: the server without credentials, and the credentials apart (nats.js ignores a URL's userinfo). */
export interface NatsConnectOptions {
  servers: string;
  user?: string;
  pass?: string;
  /**
   * Replies to this connection's requests arrive under this prefix. With credentials, each user
   * has its own (`_INBOX.<user>`), so the bus permissions can let it read its own replies only
   * (one `_INBOX.>` for everybody would let any service read the gateway's replies).
   */
  inboxPrefix?: string;
}

export function natsConnectOptions(url: string): NatsConnectOptions {
  const u = new URL(url);
  if (!u.username && !u.password) return { servers: url };
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  u.username = '';
  u.password = '';
  return { servers: u.toString().replace(/\/$/, ''), user, pass, inboxPrefix: natsInboxPrefix(user) };
}

/** The reply inbox prefix of a NATS user (see NatsConnectOptions.inboxPrefix). */
export function natsInboxPrefix(user: string): string {
  return `_INBOX.${user}`;
}

/** NATS_URL, with NATS_USER / NATS_PASSWORD folded in when the URL carries no credentials. */
export function readNatsUrl(r: EnvReader): string {
  const url = r.url('NATS_URL', 'nats://127.0.0.1:4222', ['nats:', 'tls:']);
  const user = r.optional('NATS_USER');
  const password = r.optional('NATS_PASSWORD');
  if ((user === undefined) !== (password === undefined)) r.problems.push('NATS_USER and NATS_PASSWORD go together: set both or neither');
  if (user !== undefined && !/^[A-Za-z0-9_-]+$/.test(user))
    r.problems.push('NATS_USER must be letters, digits, "_" or "-" (it names the reply inbox subject)');
  return withCredentials(url, user, password);
}

/** REDIS_URL, with REDIS_PASSWORD folded in when the URL carries none. */
export function readRedisUrl(r: EnvReader): string {
  const url = r.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']);
  return withCredentials(url, undefined, r.optional('REDIS_PASSWORD'));
}

/** ioredis / BullMQ connection settings of a Redis URL, with its user and password decoded (a URL carries them percent-encoded). */
export function redisConnectionOptions(url: string): {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db: number;
  tls?: object;
} {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port) || 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    db: Number(u.pathname.slice(1)) || 0,
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}
