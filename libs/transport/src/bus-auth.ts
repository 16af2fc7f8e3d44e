import Redis from 'ioredis';
import { connect } from 'nats';
import { natsConnectOptions, redactUrl, redisConnectionOptions } from '@tokensvc/config';

/**
 * Whether the bus enforces its users: the per-app NATS subject permissions (nats-permissions.ts)
 * and the Redis password only protect anything when the servers refuse a client without
 * credentials. A NATS without users answers any local process, paid data included.
 *
 * - `enforced`: a client without credentials is refused
 * - `open`: a client without credentials is served
 * - `unknown`: the probe could not tell (server not reachable, timeout)
 */
export type BusAuth = 'enforced' | 'open' | 'unknown';

export interface BusAuthReport {
  nats: BusAuth;
  /** absent when the app does not use Redis */
  redis?: BusAuth;
  /** one line for the log: what each server enforces and, when open, what to do */
  statement: string;
}

const PROBE_TIMEOUT_MS = 2000;
const NATS_FIX = 'run NATS with the users of deploy/nats/tokensvc-auth.conf and give each app NATS_USER/NATS_PASSWORD';
const REDIS_FIX = 'run Redis with a password (requirepass) and give the apps REDIS_PASSWORD';

/** Connects to the URL's NATS server without credentials. */
export async function probeNatsAuth(natsUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<{ auth: BusAuth; detail?: string }> {
  try {
    const nc = await connect({
      servers: natsConnectOptions(natsUrl).servers,
      timeout: timeoutMs,
      reconnect: false,
      name: 'bus-auth-probe',
    });
    await nc.close();
    return { auth: 'open' };
  } catch (e) {
    const err = e as { code?: string; message?: string };
    if (err.code === 'AUTHORIZATION_VIOLATION' || /authoriz|authenticat/i.test(err.message ?? '')) return { auth: 'enforced' };
    return { auth: 'unknown', detail: err.message ?? String(e) };
  }
}

/** Sends PING to the URL's Redis without its username and password. */
export async function probeRedisAuth(redisUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<{ auth: BusAuth; detail?: string }> {
  const { host, port, db, tls } = redisConnectionOptions(redisUrl);
  const client = new Redis({
    host,
    port,
    db,
    ...(tls ? { tls } : {}),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableReadyCheck: false,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG' ? { auth: 'open' } : { auth: 'unknown', detail: 'PING did not answer PONG' };
  } catch (e) {
    const message = (e as Error).message ?? String(e);
    if (/NOAUTH|NOPERM|WRONGPASS|auth/i.test(message)) return { auth: 'enforced' };
    return { auth: 'unknown', detail: message };
  } finally {
    client.disconnect();
  }
}

/** Probes the app's NATS (and its Redis when `usesRedis`) and says in one line what they enforce. */
export async function probeBusAuth(config: { natsUrl: string; redisUrl: string }, opts: { usesRedis: boolean }): Promise<BusAuthReport> {
  const [nats, redis] = await Promise.all([probeNatsAuth(config.natsUrl), opts.usesRedis ? probeRedisAuth(config.redisUrl) : undefined]);
  const user = natsConnectOptions(config.natsUrl).user;
  const natsAt = `NATS at ${redactUrl(natsConnectOptions(config.natsUrl).servers)}`;
  const parts = [
    nats.auth === 'enforced'
      ? `${natsAt} enforces users (${user === undefined ? 'this app has no NATS_USER: it will be refused' : `connected as ${user}`})`
      : nats.auth === 'open'
        ? `${natsAt} accepts unauthenticated clients: the per-app subject permissions are NOT in force, any local process can ask for paid data; ${NATS_FIX}`
        : `${natsAt} could not be probed (${nats.detail})`,
  ];
  if (redis) {
    const redisAt = `Redis at ${redactUrl(config.redisUrl)}`;
    parts.push(
      redis.auth === 'enforced'
        ? `${redisAt} requires a password`
        : redis.auth === 'open'
          ? `${redisAt} accepts clients without a password: any local process can read and change the rate limits, key cache and queues; ${REDIS_FIX}`
          : `${redisAt} could not be probed (${redis.detail})`,
    );
  }
  return { nats: nats.auth, ...(redis ? { redis: redis.auth } : {}), statement: `bus: ${parts.join('; ')}` };
}

/**
 * At an app's start: states whether its bus enforces users (warn when open, info when enforced),
 * and in the production configuration (`registry` set: real networks) refuses to start on a NATS,
 * or a Redis when the app uses one, that serves a client without credentials.
 */
export async function checkBusAuth(
  app: string,
  config: { natsUrl: string; redisUrl: string; registry?: string },
  opts: { usesRedis: boolean },
  logger: { info(msg: string): void; warn(msg: string): void },
): Promise<BusAuthReport> {
  const report = await probeBusAuth(config, opts);
  const open = report.nats === 'open' || report.redis === 'open';
  if (open && config.registry !== undefined) {
    const fixes = [report.nats === 'open' ? NATS_FIX : undefined, report.redis === 'open' ? REDIS_FIX : undefined].filter(Boolean);
    throw new Error(
      `${app} refuses to start: in the production configuration (REGISTRY is set) its bus must refuse unauthenticated clients; ${fixes.join('; ')} (${report.statement})`,
    );
  }
  if (open || report.nats === 'unknown' || report.redis === 'unknown') logger.warn(report.statement);
  else logger.info(report.statement);
  return report;
}
