import { JsonRpcProvider, Network as EthersNetwork } from 'ethers';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import type { NetworkEndpoint } from '@tokensvc/config';
import { JsonRpcClient } from './rpc/json-rpc-client';

/**
 * One JSON-RPC provider per enabled network, with the chain id pinned (no network detection
 * round trip) and request batching on.
 */
export function createProviders(endpoints: readonly NetworkEndpoint[]): Map<Network, JsonRpcProvider> {
  const out = new Map<Network, JsonRpcProvider>();
  for (const e of endpoints) {
    const chainId = NETWORK_INFO[e.network].chainId;
    out.set(
      e.network,
      new JsonRpcProvider(e.rpcUrl, EthersNetwork.from(chainId), {
        staticNetwork: true,
        batchMaxCount: 50,
        polling: true,
        pollingInterval: Math.min(NETWORK_INFO[e.network].blockTimeMs, 4000),
      }),
    );
  }
  return out;
}

/** Fails with a clear message when an RPC URL points at a different chain than its network. */
export async function assertChainId(network: Network, provider: JsonRpcProvider): Promise<void> {
  const got = Number(await provider.send('eth_chainId', []));
  const want = NETWORK_INFO[network].chainId;
  if (got !== want)
    throw new Error(`RPC URL for ${network} serves chain id ${got}, expected ${want}; fix RPC_URL_${network.toUpperCase()}`);
}

/**
 * Every URL of a network (RPC_URL_<NETWORK> may list several) serves the network's chain id; the
 * message names the URL by position and host only (paths and queries carry API keys).
 */
export async function assertChainIdOfEach(network: Network, urls: readonly string[]): Promise<void> {
  const want = NETWORK_INFO[network].chainId;
  await Promise.all(
    urls.map(async (url, i) => {
      const got = Number(
        await new JsonRpcClient(url, { timeoutMs: 10_000, retry: { attempts: 3, baseDelayMs: 200, maxDelayMs: 1000 } }).call<string>(
          'eth_chainId',
        ),
      );
      if (got !== want)
        throw new Error(
          `RPC URL ${i + 1} of ${urls.length} for ${network} (${new URL(url).host}) serves chain id ${got}, expected ${want}; fix RPC_URL_${network.toUpperCase()}`,
        );
    }),
  );
}

export async function destroyProviders(providers: Map<Network, JsonRpcProvider>): Promise<void> {
  for (const p of providers.values()) p.destroy();
}
