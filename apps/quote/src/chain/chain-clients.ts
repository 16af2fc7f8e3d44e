/** One fetch JSON-RPC client per enabled network, plus a short-lived gas price cache. */
import { JsonRpcClient } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { ErrorCode } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';

export class ChainClients {
  private readonly clients = new Map<Network, JsonRpcClient>();
  private readonly gasPrices = new Map<Network, { value: bigint; at: number; pending?: Promise<bigint> }>();

  constructor(endpoints: ReadonlyArray<{ network: Network; rpcUrl: string }>, private readonly gasPriceTtlMs: number) {
    for (const e of endpoints) this.clients.set(e.network, new JsonRpcClient(e.rpcUrl, { timeoutMs: 10_000, retry: { attempts: 2, baseDelayMs: 100, maxDelayMs: 500 } }));
  }

  get(network: Network): JsonRpcClient {
    const client = this.clients.get(network);
    if (!client) throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, `network ${network} is not enabled on this service`);
    return client;
  }

  /** eth_gasPrice, cached for a few seconds (a quote prices gas, it does not bid). */
  async gasPrice(network: Network): Promise<bigint> {
    const cached = this.gasPrices.get(network);
    if (cached && Date.now() - cached.at < this.gasPriceTtlMs) return cached.value;
    if (cached?.pending) return cached.pending;
    const pending = this.get(network)
      .call<string>('eth_gasPrice')
      .then((hex) => {
        const value = BigInt(hex);
        this.gasPrices.set(network, { value, at: Date.now() });
        return value;
      })
      .catch((e: unknown) => {
        this.gasPrices.delete(network);
        throw e;
      });
    this.gasPrices.set(network, { value: cached?.value ?? 0n, at: cached?.at ?? 0, pending });
    return pending;
  }
}
