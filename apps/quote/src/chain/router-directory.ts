/** The Executor each network's Router created (call targets pay out to it), read once. */
import { Interface } from 'ethers';
import type { Network } from '@tokensvc/domain';
import type { ChainClients } from './chain-clients';

const ROUTER = new Interface(['function executor() view returns (address)']);

export class RouterDirectory {
  private readonly executors = new Map<Network, Promise<string>>();

  constructor(private readonly chains: ChainClients) {}

  executor(network: Network, router: string): Promise<string> {
    let found = this.executors.get(network);
    if (!found) {
      found = this.chains
        .get(network)
        .call<string>('eth_call', [{ to: router, data: ROUTER.encodeFunctionData('executor') }, 'latest'])
        .then((ret) => (ROUTER.decodeFunctionResult('executor', ret)[0] as string).toLowerCase());
      void found.catch(() => this.executors.delete(network));
      this.executors.set(network, found);
    }
    return found;
  }
}
