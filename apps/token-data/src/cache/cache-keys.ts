import type { AccountRequest, ListTokensRequest, TokenHistoryRequest } from '@tokensvc/messages';

const sortedLower = (xs: readonly string[]): string[] => [...new Set(xs.map((x) => x.toLowerCase()))].sort();
const sorted = (xs: readonly string[]): string[] => [...new Set(xs)].sort();

/**
 * Cache keys of the normalised requests: any-case token keys and addresses lowercased, array
 * filters (whose elements combine with OR) deduplicated and ordered, search lowercased (it matches
 * case-insensitively). Parameters that change the answer are all part of the key.
 */
export function listTokensKey(req: ListTokensRequest): string {
  return JSON.stringify({
    ...req,
    search: req.search?.toLowerCase(),
    ids: sortedLower(req.ids),
    platforms: sorted(req.platforms),
    networks: sorted(req.networks),
    tags: sorted(req.tags),
  });
}

/** `from` is bucketed by the use case; the raw value is kept because out-of-range values are refused. */
export function historyKey(req: TokenHistoryRequest): string {
  return JSON.stringify({ ...req, id: req.id.toLowerCase() });
}

export function accountKey(req: AccountRequest): string {
  return JSON.stringify({ owner: req.owner.toLowerCase(), networks: sorted(req.networks), finality: req.finality || 'latest' });
}
