/**
 * Where a webhook may be sent. Checked at registration (a clear 400) and again at every delivery,
 * at connect time: the connection uses the addresses this policy resolved and judged, so a name
 * that resolved to a public address at registration and to a private one later (DNS rebinding)
 * is refused then. Rules: https (http only for hosts on WEBHOOK_ALLOW_HTTP_HOSTS), no credentials
 * in the URL, the host on WEBHOOK_ALLOWED_HOSTS, and every address it resolves to public (see
 * address-classifier.ts) unless the host is on WEBHOOK_ALLOW_PRIVATE_HOSTS (tests, private
 * deployments; off by default).
 */
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress } from './address-classifier';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (the OS resolver, like a plain connect would use). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (e, addresses) => (e ? reject(e) : resolve(addresses))));

/** A refused destination; `message` completes `invalid url "<url>": ...`. */
export class DestinationError extends Error {}

export interface DestinationRules {
  readonly allowedHosts: readonly string[];
  readonly httpHosts: readonly string[];
  readonly privateHosts: readonly string[];
}

/** `host` against `*`, `*.example.com` (subdomains only) or an exact host (IPv6 in brackets). */
export function hostMatches(host: string, patterns: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return patterns.some((p) => p === '*' || p === h || (p.startsWith('*.') && h.endsWith(p.slice(1)) && h.length > p.length - 1));
}

/** The URL's host without IPv6 brackets (what the resolver and the classifier take). */
const bare = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');

export class DestinationPolicy {
  constructor(
    private readonly rules: DestinationRules,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  /** The form of the URL and the host lists; no network. Throws DestinationError. */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new DestinationError('must be an absolute URL');
    }
    const host = url.hostname.toLowerCase();
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new DestinationError(`must use https, not ${url.protocol.replace(/:$/, '')}`);
    if (url.protocol === 'http:' && !hostMatches(host, this.rules.httpHosts))
      throw new DestinationError('must use https (plain http only for hosts the operator allows in WEBHOOK_ALLOW_HTTP_HOSTS)');
    if (url.username !== '' || url.password !== '') throw new DestinationError('must not carry credentials (user:password@)');
    if (host === '') throw new DestinationError('must name a host');
    if (this.rules.allowedHosts.length === 0)
      throw new DestinationError('webhooks are disabled on this deployment (WEBHOOK_ALLOWED_HOSTS is empty)');
    if (!hostMatches(host, this.rules.allowedHosts))
      throw new DestinationError(`host ${host} is not on this deployment's webhook allow-list (WEBHOOK_ALLOWED_HOSTS)`);
    url.hash = '';
    return url;
  }

  /** The addresses to connect to: all of them public, unless the host may be private. Throws DestinationError. */
  async addresses(url: URL): Promise<ResolvedAddress[]> {
    const host = bare(url.hostname.toLowerCase());
    const literal = isIP(host);
    let found: ResolvedAddress[];
    if (literal) found = [{ address: host, family: literal }];
    else {
      try {
        found = await this.resolve(host);
      } catch (e) {
        throw new DestinationError(`host ${host} does not resolve (${(e as { code?: string }).code ?? (e as Error).message})`);
      }
      if (found.length === 0) throw new DestinationError(`host ${host} does not resolve`);
    }
    if (hostMatches(url.hostname, this.rules.privateHosts)) return found;
    for (const a of found) {
      const v = classifyAddress(a.address);
      if (!v.public)
        throw new DestinationError(`host ${host} resolves to ${a.address}, a ${v.reason} address; webhooks go to public addresses only`);
    }
    return found;
  }

  /** Registration: the form, the lists and the addresses now. */
  async check(raw: string): Promise<URL> {
    const url = this.checkUrl(raw);
    await this.addresses(url);
    return url;
  }

  /**
   * A `lookup` for http(s).request that answers with the addresses judged by this policy for
   * `url` (resolved again now), so the socket connects only to an address that passed.
   */
  lookupFor(url: URL): LookupFunction {
    return (_hostname, options, callback) => {
      this.addresses(url).then(
        (found) => {
          const family = typeof options === 'object' && options ? options.family : undefined;
          const usable = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
          if (usable.length === 0)
            return callback(Object.assign(new Error(`no IPv${family} address for ${url.hostname}`), { code: 'ENOTFOUND' }), '', 0);
          if (typeof options === 'object' && options?.all)
            return (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, usable);
          callback(null, usable[0]!.address, usable[0]!.family);
        },
        (e: Error) => callback(Object.assign(e, { code: 'EWEBHOOKDESTINATION' }), '', 0),
      );
    };
  }
}
