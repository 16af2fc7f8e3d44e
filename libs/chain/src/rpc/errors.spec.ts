import {
  BlockNotOnNodeError,
  isBehindError,
  isRangeTooLargeError,
  isRateLimitError,
  isRetryableRpcError,
  JsonRpcError,
  logCapHint,
  RpcTransportError,
} from './errors';

describe('RPC error classification', () => {
  it.each([
    [-32005, 'query returned more than 10000 results'],
    [-32602, 'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range'],
    [-32000, 'exceed maximum block range: 5000'],
    [-32600, 'eth_getLogs is limited to a 10,000 range'],
    [-32000, 'block range is too large'],
  ])('code %i "%s" means "ask for a smaller range"', (code, message) => {
    expect(isRangeTooLargeError(new JsonRpcError('eth_getLogs', code, message))).toBe(true);
  });

  it('treats timeouts and HTTP 413 as too large, other failures not', () => {
    expect(isRangeTooLargeError(new RpcTransportError('eth_getLogs', 'timeout after 30000 ms'))).toBe(true);
    expect(isRangeTooLargeError(new RpcTransportError('eth_getLogs', 'HTTP 413', 413))).toBe(true);
    expect(isRangeTooLargeError(new JsonRpcError('eth_getLogs', -32602, 'invalid argument 0: hex string has odd length'))).toBe(false);
    expect(isRangeTooLargeError(new Error('boom'))).toBe(false);
  });

  it('retries transport failures, 5xx, 429 and node hiccups, not reverts or bad requests', () => {
    expect(isRetryableRpcError(new RpcTransportError('x', 'fetch failed'))).toBe(true);
    expect(isRetryableRpcError(new RpcTransportError('x', 'HTTP 503', 503))).toBe(true);
    expect(isRetryableRpcError(new RpcTransportError('x', 'HTTP 429', 429))).toBe(true);
    expect(isRetryableRpcError(new RpcTransportError('x', 'HTTP 400', 400))).toBe(false);
    expect(isRetryableRpcError(new JsonRpcError('eth_call', -32000, 'execution reverted'))).toBe(false);
    expect(isRetryableRpcError(new JsonRpcError('eth_getLogs', -32000, 'header not found'))).toBe(true);
    expect(
      isRetryableRpcError(new JsonRpcError('eth_call', -32602, 'BlockOutOfRangeError: block height is 730 but requested was 729')),
    ).toBe(true);
    expect(isRetryableRpcError(new JsonRpcError('eth_call', -32602, 'invalid params'))).toBe(false);
  });

  it.each([
    [
      'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [0x10, 0x5e]',
      { range: 79, results: 10_000 },
    ],
    [
      'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size',
      { range: 2000 },
    ],
    ['query returned more than 10000 results. Try with this block range [0x1, 0x64].', { range: 100, results: 10_000 }],
    ['query returned more than 10000 results', { results: 10_000 }],
    ['eth_getLogs is limited to a 10,000 range', { range: 10_000 }],
    ['exceed maximum block range: 5000', { range: 5000 }],
    ['block range is too wide', {}],
  ])('reads the caps out of "%s"', (message, hint) => {
    expect(logCapHint(new JsonRpcError('eth_getLogs', -32000, message))).toEqual(hint);
  });

  it('tells rate limits and nodes behind apart from "range too large"', () => {
    expect(isRateLimitError(new RpcTransportError('x', 'HTTP 429', 429))).toBe(true);
    expect(isRateLimitError(new JsonRpcError('x', -32005, 'daily request count exceeded, request rate limited'))).toBe(true);
    expect(isRateLimitError(new JsonRpcError('x', 429, 'Your app has exceeded its compute units per second capacity'))).toBe(true);
    expect(isRateLimitError(new JsonRpcError('eth_getLogs', -32005, 'query returned more than 10000 results'))).toBe(false);
    const behind = new JsonRpcError('eth_getLogs', -32000, 'block range extends beyond current head block');
    expect([isBehindError(behind), isRangeTooLargeError(behind), isRetryableRpcError(behind)]).toEqual([true, false, true]);
    expect(isBehindError(new BlockNotOnNodeError('eth_getBlockByNumber', 5, 'http://x'))).toBe(true);
  });
});
