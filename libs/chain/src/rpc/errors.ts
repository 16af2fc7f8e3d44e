/** A JSON-RPC error object returned by the node (the request reached it and was refused). */
export class JsonRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${rpcMessage} (code ${code})`);
  }
}

/** The request did not get a JSON-RPC answer: network error, timeout, HTTP status, bad body. */
export class RpcTransportError extends Error {
  constructor(
    readonly method: string,
    message: string,
    readonly status?: number,
    /** the server's Retry-After, in ms (429 and 503 answers) */
    readonly retryAfterMs?: number,
  ) {
    super(`${method}: ${message}`);
  }
}

/**
 * The node does not have the block asked for (yet): a null block, or a range past its head. Behind
 * a load balancer or on a lagging provider that is normal; it is asked again elsewhere or later,
 * never taken as a reorg.
 */
export class BlockNotOnNodeError extends Error {
  constructor(
    readonly method: string,
    readonly block: number,
    readonly url: string,
  ) {
    super(`${method}: block ${block} is not on the node yet (${url})`);
  }
}

/** The node answered with something that breaks the JSON-RPC spec (missing fields, duplicates). */
export class RpcResponseError extends Error {}

const RANGE_HINTS = [
  'block range',
  'range too large',
  'range is too large',
  'more than',
  'too many',
  'limit exceeded',
  'response size',
  'exceed',
  'query timeout',
  'timeout',
  'too large',
  'is limited to',
  'range limit',
];

/**
 * Does this eth_getLogs failure mean "ask for less" (providers word it in many ways: Alchemy
 * "Log response size exceeded", Infura "query returned more than 10000 results", geth "exceed
 * maximum block range", QuickNode "eth_getLogs is limited to a 10,000 range", timeouts, HTTP 413)?
 */
export function isRangeTooLargeError(e: unknown): boolean {
  if (e instanceof RpcTransportError) return e.status === 413 || /timeout|aborted/i.test(e.message);
  if (!(e instanceof JsonRpcError)) return false;
  if (isBehindError(e) || isRateLimitError(e)) return false;
  if (e.code === -32005) return true;
  const text = errorText(e);
  return RANGE_HINTS.some((h) => text.includes(h));
}

const errorText = (e: JsonRpcError): string =>
  `${e.rpcMessage} ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data ?? '')}`.toLowerCase();

/** What a "range too large" answer says about the node's caps (when it says anything). */
export interface LogCapHint {
  /** the block range the node accepts (or suggests for this request) */
  range?: number;
  /** the most logs it returns in one response */
  results?: number;
}

/**
 * Reads the caps out of the major providers' eth_getLogs refusals: Alchemy "... up to a 2K block
 * range ... cap of 10K logs ... this block range should work: [0x1, 0x5e]", Infura "query returned
 * more than 10000 results. Try with this block range [0x.., 0x..]", QuickNode "eth_getLogs is
 * limited to a 10,000 range", geth/erigon "exceed maximum block range: 5000". Texts that name
 * nothing (Ankr "block range is too wide", timeouts) give {}: the caller halves.
 */
export function logCapHint(e: unknown): LogCapHint {
  if (!(e instanceof JsonRpcError)) return {};
  const text = errorText(e).replace(/(\d),(\d{3})/g, '$1$2');
  const num = (digits: string, k: string | undefined): number => Number(digits) * (k ? 1000 : 1);
  const out: LogCapHint = {};
  const suggested = /\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/.exec(text);
  if (suggested) {
    const size = parseInt(suggested[2]!, 16) - parseInt(suggested[1]!, 16) + 1;
    if (size >= 1) out.range = size;
  }
  const named =
    /maximum block range:?\s*(\d+)(k)?/.exec(text) ??
    /limited to an? (\d+)(k)? (?:block )?range/.exec(text) ??
    /up to an? (\d+)(k)? block range/.exec(text) ??
    /block range (?:limit|of|is) (\d+)(k)?/.exec(text) ??
    /range (?:should|must) (?:not exceed|be (?:less than|at most)) (\d+)(k)?/.exec(text);
  if (named && out.range === undefined) out.range = num(named[1]!, named[2]);
  const results = /more than (\d+)(k)? (?:results|logs)/.exec(text) ?? /cap of (\d+)(k)? logs/.exec(text);
  if (results) out.results = num(results[1]!, results[2]);
  return out;
}

/** A rate limit: HTTP 429, or a JSON-RPC error saying so (some providers answer 200 with it). */
export function isRateLimitError(e: unknown): boolean {
  if (e instanceof RpcTransportError) return e.status === 429;
  if (!(e instanceof JsonRpcError)) return false;
  return (
    e.code === 429 || /rate limit|too many requests|exceeded .*(?:capacity|compute units|requests per)|request limit/i.test(e.rpcMessage)
  );
}

/** The node answered about a block it does not have yet (a lagging or load-balanced node). */
export function isBehindError(e: unknown): boolean {
  if (e instanceof BlockNotOnNodeError) return true;
  if (!(e instanceof JsonRpcError)) return false;
  return /beyond (?:the )?current head|header not found|unknown block|block not found|after last accepted block|greater than (?:the )?(?:latest|head)/i.test(
    e.rpcMessage,
  );
}

/** Worth retrying the same request later: transport failures, rate limits, node-side hiccups. */
export function isRetryableRpcError(e: unknown): boolean {
  if (e instanceof BlockNotOnNodeError) return true;
  if (e instanceof RpcTransportError) return e.status === undefined || e.status === 429 || e.status >= 500;
  if (e instanceof JsonRpcError) {
    if (/revert/i.test(e.rpcMessage)) return false;
    // A node that keeps no history (anvil --prune-history) may answer a `latest` call with the state
    // of a block it just dropped when a new one lands meanwhile: asking again gets the new block.
    return (
      e.code === -32603 ||
      e.code === -32000 ||
      e.code === 429 ||
      /rate|limit|busy|try again|header not found|BlockOutOfRange|block height is/i.test(e.rpcMessage)
    );
  }
  return e instanceof RpcResponseError;
}
