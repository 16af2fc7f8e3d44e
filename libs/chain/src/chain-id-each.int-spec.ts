import { testDevnet } from '@tokensvc/testing';
import { assertChainIdOfEach } from './providers';

describe('assertChainIdOfEach (every URL of RPC_URL_<NETWORK>)', () => {
  const { rpcUrls } = testDevnet();

  it('accepts URLs that all serve the network, names the one that does not by position and host', async () => {
    await expect(assertChainIdOfEach('ethereum', [rpcUrls.ethereum!, rpcUrls.ethereum!])).resolves.toBeUndefined();
    const host = new URL(rpcUrls.base!).host;
    await expect(assertChainIdOfEach('ethereum', [rpcUrls.ethereum!, rpcUrls.base!])).rejects.toThrow(
      `RPC URL 2 of 2 for ethereum (${host}) serves chain id 8453, expected 1; fix RPC_URL_ETHEREUM`,
    );
  });
});
