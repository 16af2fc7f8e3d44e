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
  ) {
    super(`${method}: ${message}`);
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
  if (e.code === -32005) return true;
  const text = `${e.rpcMessage} ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data ?? '')}`.toLowerCase();
  return RANGE_HINTS.some((h) => text.includes(h));
}

/** Worth retrying the same request later: transport failures, rate limits, node-side hiccups. */
export function isRetryableRpcError(e: unknown): boolean {
  if (e instanceof RpcTransportError) return e.status === undefined || e.status === 429 || e.status >= 500;
  if (e instanceof JsonRpcError) {
    if (/revert/i.test(e.rpcMessage)) return false;
    // A node that keeps no history (anvil --prune-history) may answer a `latest` call with the state
    // of a block it just dropped when a new one lands meanwhile: asking again gets the new block.
    return e.code === -32603 || e.code === -32000 || e.code === 429 || /rate|limit|busy|try again|header not found|BlockOutOfRange|block height is/i.test(e.rpcMessage);
  }
  return e instanceof RpcResponseError;
}
