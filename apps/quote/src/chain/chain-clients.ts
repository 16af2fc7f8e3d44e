/** One fetch JSON-RPC client per enabled network, plus short-lived gas price and chain clock caches. */
import { JsonRpcClient } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { ErrorCode } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';

/** What deadlines are computed from: a network's clock (see `ChainClients.now`). */
export interface ChainClock {
  now(network: Network): Promise<number>;
}

export class ChainClients implements ChainClock {
  private readonly clients = new Map<Network, JsonRpcClient>();
  private readonly gasPrices = new Map<Network, { value: bigint; at: number; pending?: Promise<bigint> }>();
  private readonly heads = new Map<Network, { timestamp: number; at: number; pending?: Promise<number> }>();

  /** Every URL of a network (failover, health, caps and 429s handled by the client); `rpcUrl` alone where that is all a caller has. */
  constructor(
    endpoints: ReadonlyArray<{ network: Network; rpcUrl: string; rpcUrls?: readonly string[]; maxRps?: number }>,
    private readonly gasPriceTtlMs: number,
  ) {
    for (const e of endpoints) {
      const urls = e.rpcUrls?.length ? [...e.rpcUrls] : e.rpcUrl;
      this.clients.set(
        e.network,
        new JsonRpcClient(urls, { timeoutMs: 10_000, retry: { attempts: 2, baseDelayMs: 100, maxDelayMs: 500 }, maxRps: e.maxRps }),
      );
    }
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

  /**
   * Unix seconds on the network's clock: its latest block's timestamp, advanced by the wall time
   * since it was read, or ours, whichever is later. Contracts check deadlines against block time,
   * and a devnet under time control (evm_increaseTime) runs ahead of the wall clock: a deadline
   * from the wall clock alone would be in the past there. Read at most once per `CLOCK_TTL_MS`;
   * when the node cannot answer, the wall clock is used (a quote does not fail on this).
   */
  async now(network: Network): Promise<number> {
    const wall = Date.now();
    const cached = this.heads.get(network);
    let timestamp: number;
    if (cached && wall - cached.at < CLOCK_TTL_MS) timestamp = cached.timestamp + Math.floor((wall - cached.at) / 1000);
    else if (cached?.pending) timestamp = await cached.pending;
    else {
      const pending = this.get(network)
        .call<{ timestamp: string } | null>('eth_getBlockByNumber', ['latest', false])
        .then((b) => {
          const t = b ? Number(BigInt(b.timestamp)) : 0;
          this.heads.set(network, { timestamp: t, at: Date.now() });
          return t;
        })
        .catch(() => {
          this.heads.delete(network);
          return 0;
        });
      this.heads.set(network, { timestamp: cached?.timestamp ?? 0, at: cached?.at ?? 0, pending });
      timestamp = await pending;
    }
    return Math.max(timestamp, Math.floor(wall / 1000));
  }
}

const CLOCK_TTL_MS = 2_000;
