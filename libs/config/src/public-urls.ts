import type { EnvReader } from './env';

/** Where browser-facing URLs point, and which origins may call the API from a browser. */
export interface PublicUrlsConfig {
  /**
   * Prefix of the token image URLs the API returns (no trailing slash): IMAGE_CDN_BASE_URL when set,
   * else PUBLIC_BASE_URL, else '' or absent (relative `/images/tokens/...svg`, served by the gateway itself).
   */
  readonly imageBaseUrl?: string;
}

export interface CorsConfig {
  /** Origins allowed to call the API from a browser (CORS_ORIGINS); ['*'] any origin; `local` this machine's origins; [] CORS off. */
  readonly corsOrigins: readonly string[];
}

/**
 * The CORS_ORIGINS entry for a browser app on the developer's machine: a dev server's port is not
 * known in advance (5173, 3001, 8080...), so every port of the loopback names is allowed.
 */
export const LOCAL_ORIGINS = 'local';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a request's Origin is an http(s) origin on a loopback name (localhost, 127.0.0.1, [::1]), any port. */
export function isLocalOrigin(origin: string): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === origin && LOOPBACK_HOSTS.has(u.hostname);
  } catch {
    return false;
  }
}

/** Drops trailing slashes (a loop, not a regex: these values are operator input of any length). */
function trimSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === '/') end--;
  return s.slice(0, end);
}

function baseUrl(r: EnvReader, name: string): string | undefined {
  if (r.optional(name) === undefined) return undefined;
  // a base is a prefix: a trailing slash would make `//images/...`
  return trimSlashes(r.url(name, '', ['http:', 'https:']));
}

export function readPublicUrls(r: EnvReader): PublicUrlsConfig {
  const publicBase = baseUrl(r, 'PUBLIC_BASE_URL');
  const cdn = baseUrl(r, 'IMAGE_CDN_BASE_URL');
  return { imageBaseUrl: cdn ?? publicBase ?? '' };
}

export function readCors(r: EnvReader): CorsConfig {
  const origins = (r.optional('CORS_ORIGINS') ?? '')
    .split(',')
    .map((s) => trimSlashes(s.trim()))
    .filter(Boolean);
  for (const o of origins) {
    if (o === '*' || o === LOCAL_ORIGINS) continue;
    let ok = false;
    try {
      const u = new URL(o);
      ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === o;
    } catch {
      ok = false;
    }
    const what = `not an origin (scheme://host[:port], e.g. https://app.example.com), ${LOCAL_ORIGINS} or *`;
    if (!ok) r.problems.push(`CORS_ORIGINS entry "${o.slice(0, 80)}" is ${what}`);
  }
  if (origins.includes('*') && origins.length > 1) r.problems.push('CORS_ORIGINS: "*" allows every origin; list origins or "*" alone');
  return { corsOrigins: origins };
}
