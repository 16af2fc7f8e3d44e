// ipaddr.js: the parser Fastify's own proxy-addr uses, so what boots here is what Fastify accepts.
import ipaddr from 'ipaddr.js';
import type { EnvReader } from './env';

/** The admin token's minimum length: a short or guessable one is refused at boot. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

/** Who may call the gateway how: client addresses behind proxies, per-client keying, the admin listener. */
export interface GatewayAccessConfig {
  /**
   * Proxies (CIDRs or addresses) whose X-Forwarded-For is believed: the client address is the
   * right-most entry not in this list. Empty: the socket address, X-Forwarded-For ignored.
   */
  readonly trustedProxies: readonly string[];
  /** anonymous IPv6 clients share one budget per prefix of this length (one /64 is one subscriber) */
  readonly rateLimitIpv6Prefix: number;
  /** the admin API (`/admin/keys`) listens here only, never on the public port */
  readonly adminHost: string;
  readonly adminPort: number;
  /** undefined: the admin API answers 403 */
  readonly adminToken: string | undefined;
}

/** A CIDR (`10.0.0.0/8`, `fd00::/8`) or a single address; IPv4 only in four-part decimal. */
function isProxyEntry(entry: string): boolean {
  const [addr, bits, extra] = entry.split('/');
  if (extra !== undefined || addr === undefined) return false;
  const v4 = ipaddr.IPv4.isValidFourPartDecimal(addr);
  if (!v4 && !ipaddr.IPv6.isValid(addr)) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (v4 ? 32 : 128);
}

export function readGatewayAccess(r: EnvReader): GatewayAccessConfig {
  const trustedProxies = (r.optional('TRUSTED_PROXIES') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of trustedProxies)
    if (!isProxyEntry(p)) r.problems.push(`TRUSTED_PROXIES entry "${p}" is not a CIDR (e.g. 10.0.0.0/8, fd00::/8) or an IP address`);
  // A hop count trusts whatever sits N hops in, whoever sent it: say what replaced it rather than ignore it.
  if (r.optional('TRUST_PROXY_HOPS') !== undefined)
    r.problems.push('TRUST_PROXY_HOPS is no longer read: list the proxies in TRUSTED_PROXIES as CIDRs (e.g. TRUSTED_PROXIES=10.0.0.0/8)');
  const adminToken = r.optional('ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    r.problems.push(
      `ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters (got ${adminToken.length}); e.g. openssl rand -hex 32`,
    );
  }
  return {
    trustedProxies,
    rateLimitIpv6Prefix: r.int('RATE_LIMIT_IPV6_PREFIX', 64, 16, 128),
    adminHost: r.string('ADMIN_HOST', '127.0.0.1'),
    adminPort: r.int('ADMIN_PORT', 3001, 0, 65535),
    adminToken,
  };
}
