import { freePort, testDevnet } from '@tokensvc/testing';
import { ChainProviders } from './chain-providers';

/** token-data's live reads (balances) go through every URL of RPC_URL_<NETWORK>, as the indexer's do. */
describe('ChainProviders over several RPC URLs', () => {
  const { rpcUrls } = testDevnet();

  it('reads through the second URL when the first refuses connections, and keeps ethers on the first', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const chains = new ChainProviders([{ network: 'base', rpcUrl: dead, rpcUrls: [dead, rpcUrls.base!], maxRps: 0 }]);
    try {
      expect(await chains.rpc.get('base')!.call<string>('eth_chainId')).toBe('0x2105');
      const balance = BigInt(
        await chains.rpc.get('base')!.call<string>('eth_getBalance', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'latest']),
      );
      expect(balance).toBeGreaterThan(0n);
      expect(chains.byNetwork.has('base')).toBe(true);
    } finally {
      await chains.onApplicationShutdown();
    }
  });
});
