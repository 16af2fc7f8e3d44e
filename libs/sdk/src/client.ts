import createClient, { type Client } from 'openapi-fetch';
import { readRateLimit, TokensvcError, type RateLimit } from './errors';
import { retryingFetch, type RetryOptions } from './retry-fetch';
import type { paths } from './types';

export interface TokensvcOptions {
  /** the gateway, e.g. http://localhost:3000 */
  baseUrl: string;
  /** sent as `Authorization: Bearer <apiKey>`; data endpoints need one, trading endpoints accept one */
  apiKey?: string;
  /** retry a 429 after its retry-after (off unless maxRetries > 0) */
  retry?: RetryOptions;
  /** the fetch to use (default the global one) */
  fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
  /** more headers on every request */
  headers?: Record<string, string>;
}

/** The typed HTTP client (openapi-fetch over the generated paths) and what the helpers need. */
export interface Tokensvc {
  /** every operation of the interface, typed: `api.GET('/v2/tokens', { params: { query } })` */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  /** headers every request carries (authorization); the SSE reader sends them too */
  readonly headers: Readonly<Record<string, string>>;
  /** the fetch the client uses (with the 429 retry) */
  readonly fetch: (input: Request, init?: RequestInit) => Promise<Response>;
  /** the rate-limit headers of the last answer */
  readonly rateLimit: RateLimit;
}

export function createTokensvc(opts: TokensvcOptions): Tokensvc {
  let baseUrl = opts.baseUrl;
  while (baseUrl.endsWith('/')) baseUrl = baseUrl.slice(0, -1);
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.apiKey) headers['authorization'] = `Bearer ${opts.apiKey}`;
  const base = opts.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
  const state = { rateLimit: {} as RateLimit };
  const fetch = retryingFetch(async (input, init) => {
    const res = await base(input, init);
    const rl = readRateLimit(res.headers);
    if (rl.limit !== undefined || rl.retryAfter !== undefined) state.rateLimit = rl;
    return res;
  }, opts.retry);
  // Every list parameter of the interface accepts a comma-separated value.
  const api = createClient<paths>({ baseUrl, headers, fetch, querySerializer: { array: { style: 'form', explode: false } } });
  return {
    api,
    baseUrl,
    headers,
    fetch,
    get rateLimit() {
      return state.rateLimit;
    },
  };
}

/** openapi-fetch's answer: the data, or a TokensvcError carrying the error body's code and the rate-limit headers. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || error !== undefined) throw TokensvcError.from(response, error);
  return data as T;
}
