import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testDevnet } from '@tokensvc/testing';
import { AdaptiveRange } from './adaptive-range';
import { ChainReader } from './chain-reader';
import { JsonRpcClient } from './json-rpc-client';

jest.setTimeout(120_000);

interface RpcBody {
  id: number;
  method: string;
  params: Array<{ fromBlock: string; toBlock: string }>;
}

/**
 * A tiny JSON-RPC proxy in front of the devnet that behaves like a limited provider: it refuses
 * eth_getLogs over more than `maxBlocks` blocks, or answering more than `maxLogs` logs, and
 * records every range it was asked for.
 */
async function limitedProxy(
  target: string,
  limits: { maxBlocks: number; maxLogs: number },
): Promise<{ url: string; asked: Array<[number, number, boolean]>; close(): Promise<void> }> {
  const asked: Array<[number, number, boolean]> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      void (async () => {
        const call = JSON.parse(body) as RpcBody;
        const reply = (json: unknown): void => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        if (call.method === 'eth_getLogs') {
          const [from, to] = [parseInt(call.params[0]!.fromBlock, 16), parseInt(call.params[0]!.toBlock, 16)];
          if (to - from + 1 > limits.maxBlocks) {
            asked.push([from, to, false]);
            return reply({
              jsonrpc: '2.0',
              id: call.id,
              error: { code: -32600, message: `eth_getLogs is limited to a ${limits.maxBlocks} block range` },
            });
          }
          const upstream = (await (
            await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
          ).json()) as { result: unknown[] };
          const ok = upstream.result.length <= limits.maxLogs;
          asked.push([from, to, ok]);
          return reply(
            ok
              ? upstream
              : { jsonrpc: '2.0', id: call.id, error: { code: -32005, message: `query returned more than ${limits.maxLogs} results` } },
          );
        }
        reply(await (await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json());
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe('ChainReader.logsAdaptive against a range-limited node', () => {
  const upstream = testDevnet().rpcUrls.ethereum!;
  const direct = new ChainReader(new JsonRpcClient(upstream));
  // Every Transfer of every contract: the seeded history has thousands, unevenly spread.
  const filter = async (): Promise<{ addresses: string[]; topic0: string[] }> => {
    const transfers = (
      await direct.client.call<Array<{ address: string }>>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER] }])
    ).map((l) => l.address.toLowerCase());
    return { addresses: [...new Set(transfers)], topic0: [TRANSFER] };
  };

  it('returns exactly the logs of one unlimited request, never exceeding the limits, and adapts the range both ways', async () => {
    const head = await direct.blockNumber();
    const f = await filter();
    const expected = await direct.logs(f, 0, head);
    const proxy = await limitedProxy(upstream, { maxBlocks: 64, maxLogs: 1200 });
    try {
      // A target above what the proxy allows: the range keeps growing into both limits.
      const range = new AdaptiveRange({ max: 10_000, initial: 1000, targetLogs: 100_000 });
      const got = await new ChainReader(new JsonRpcClient(proxy.url)).logsAdaptive(f, 0, head, range);
      expect(got.map((l) => `${l.blockNumber}:${l.logIndex}`)).toEqual(expected.map((l) => `${l.blockNumber}:${l.logIndex}`));
      expect(expected.length).toBeGreaterThan(5000);
      const accepted = proxy.asked.filter(([, , ok]) => ok);
      expect(accepted.every(([from, to]) => to - from + 1 <= 64)).toBe(true);
      // The accepted ranges tile [0, head] without gaps or overlaps.
      expect(accepted.map(([from]) => from)).toEqual([0, ...accepted.slice(0, -1).map(([, to]) => to + 1)]);
      expect(accepted.at(-1)![1]).toBe(head);
      // It was refused (too many blocks, and too many logs) and recovered by halving, then grew again.
      expect(proxy.asked.some(([from, to, ok]) => !ok && to - from + 1 > 64)).toBe(true);
      expect(proxy.asked.some(([from, to, ok]) => !ok && to - from + 1 <= 64)).toBe(true);
      const sizes = accepted.map(([from, to]) => to - from + 1);
      expect(Math.min(...sizes)).toBeLessThan(64);
      expect(sizes.some((s, i) => i > 0 && s > sizes[i - 1]!)).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
