import { freePort, testDevnet } from '@tokensvc/testing';
import { ChainClients } from './chain-clients';

/**
 * The quote service reads a network through every URL of RPC_URL_<NETWORK>: with the first one
 * down, gas prices, the chain clock and calls still come from the next.
 */
describe('ChainClients over several RPC URLs', () => {
  const { rpcUrls } = testDevnet();

  it('answers through the second URL when the first refuses connections', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const chains = new ChainClients([{ network: 'ethereum', rpcUrl: dead, rpcUrls: [dead, rpcUrls.ethereum!], maxRps: 0 }], 0);
    expect(await chains.get('ethereum').call<string>('eth_chainId')).toBe('0x1');
    expect(await chains.gasPrice('ethereum')).toBeGreaterThan(0n);
    expect(await chains.now('ethereum')).toBeGreaterThan(0);
  });
});
