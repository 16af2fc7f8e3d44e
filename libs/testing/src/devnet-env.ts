import type { Network } from '@tokensvc/domain';

/** The shared test devnet started by the Jest global setup. */
export function testDevnet(): { rpcUrls: Partial<Record<Network, string>>; manifestPath: string } {
  const urls = process.env['TEST_DEVNET_RPC_URLS'];
  const manifestPath = process.env['TEST_DEVNET_MANIFEST'];
  if (!urls || !manifestPath)
    throw new Error('no test devnet: this test must run in the integration or e2e Jest project (its global setup starts one)');
  return { rpcUrls: JSON.parse(urls) as Partial<Record<Network, string>>, manifestPath };
}
