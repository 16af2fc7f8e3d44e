/**
 * Start-up check of the configured Routers: an address without code (a typo, a Router not
 * deployed on this network yet: its address is the same on every network, so one deployed
 * elsewhere may still be missing here) would make every order revert in simulation with a
 * confusing message, so quote refuses to start and says what to do instead.
 */
import type { Network } from '@tokensvc/domain';
import { NETWORK_INFO } from '@tokensvc/domain';
import type { NetworkDeployment } from '../config/quote-config';

interface CodeReader {
  get(network: Network): { call<T>(method: string, params?: readonly unknown[]): Promise<T> };
}

/** One line per configured Router that has no code on its network (RPC failures are left to readiness). */
export async function routerCodeProblems(deployments: readonly NetworkDeployment[], chains: CodeReader): Promise<string[]> {
  const problems = await Promise.all(
    deployments.map(async (d) => {
      if (d.router === undefined) return undefined;
      const code = await chains.get(d.network).call<string>('eth_getCode', [d.router, 'latest']);
      if (code !== '0x') return undefined;
      const variable = `ROUTER_ADDRESS_${d.network.toUpperCase()}`;
      return (
        `the Router ${d.router} configured for ${d.network} (${variable}, else the devnet manifest) has no code on chain id ${NETWORK_INFO[d.network].chainId}: ` +
        `deploy it with \`npm run router -- deploy --network ${d.network}\` and set ${variable} to the address it prints (the same on every network)`
      );
    }),
  );
  return problems.filter((p): p is string => p !== undefined);
}

/** Networks this service serves without a Router (their orders, estimates and approvals are refused). */
export function networksWithoutRouter(deployments: readonly NetworkDeployment[]): Network[] {
  return deployments.filter((d) => d.router === undefined).map((d) => d.network);
}
