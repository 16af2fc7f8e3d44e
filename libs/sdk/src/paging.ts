import { unwrap, type Tokensvc } from './client';
import type { ListTokensQuery, Token } from './types';

export interface PageOptions {
  /** the page size (default 100; the service allows 1 to 250) */
  pageSize?: number;
  /** stop after this many pages */
  maxPages?: number;
  signal?: AbortSignal;
}

/**
 * Every token matching `query`, page after page of GET /v2/tokens, until the service says there
 * is no more. `for await (const t of tokens(svc, { networks: ['base'] })) ...`
 */
export async function* tokens(
  svc: Tokensvc,
  query: Omit<ListTokensQuery, 'page' | 'limit'> = {},
  opts: PageOptions = {},
): AsyncGenerator<Token, void, undefined> {
  const limit = opts.pageSize ?? 100;
  for (let page = 0; opts.maxPages === undefined || page < opts.maxPages; page++) {
    const body = await unwrap(svc.api.GET('/v2/tokens', { params: { query: { ...query, limit, page } }, signal: opts.signal }));
    yield* body.tokens;
    if (!body.more || body.tokens.length === 0) return;
  }
}
