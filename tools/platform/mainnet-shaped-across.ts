/**
 * Across on the mainnet-shaped devnet, for its e2e test: the devnet's Across relayer watching the
 * SpokePools at the registry's real addresses (those the profile placed), funded on every network
 * (gas, and each test token minted by its owner, the network's deployer: the profile's tokens are
 * the devnet's TestERC20 at real addresses), and GET /v3/portal/status polled to a terminal state.
 */
import { getAddress } from 'ethers';
import { AcrossBridgeProvider, acrossConfigFromRegistry, type BridgeDepositState, type BridgeFillInfo } from '@tokensvc/bridge';
import { loadRegistry } from '@tokensvc/chain';
import { AcrossRelayer, acrossNetworks, acrossRelayerAccount, fundAcrossRelayer, type MainnetShapedHandle } from '@tokensvc/devnet';

/**
 * A started relayer on the profile's networks. The SpokePools it watches are checked to be the
 * registry's (what the apps use with REGISTRY=shipped and CROSS_CHAIN_BRIDGE=across).
 */
export async function startProfileRelayer(devnet: MainnetShapedHandle): Promise<AcrossRelayer> {
  const registry = loadRegistry('shipped').networks;
  const networks = acrossNetworks(devnet.manifest, devnet.rpcUrls);
  const pools = networks.map((n) => `${n.network} ${n.spokePool}`);
  expectEqual(
    pools,
    networks.map((n) => `${n.network} ${getAddress(registry[n.network]!.bridge.spokePool!.address)}`),
    "the profile's SpokePools are not the registry's",
  );
  const relayerKey = acrossRelayerAccount().privateKey;
  await fundAcrossRelayer({ manifest: devnet.manifest, rpcUrls: devnet.rpcUrls, relayerKey, usdPerToken: 100_000 });
  const relayer = new AcrossRelayer({ networks, relayerKey, pollMs: 200 });
  await relayer.start();
  return relayer;
}

function expectEqual(got: string[], want: string[], what: string): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${what}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
}

/**
 * The deposit `originTxHash` made on ethereum, looked up by a fresh provider on the registry's
 * config (the apps' CROSS_CHAIN_BRIDGE=across without DEVNET_MANIFEST): by its id, as a tracker
 * that did not see the transaction would (the registry's `spokePoolFromBlock` is far above the
 * profile's head), its fill on base and its state.
 */
export async function settledOnRegistryConfig(
  devnet: MainnetShapedHandle,
  originTxHash: string,
): Promise<{ requestId: string; fill: BridgeFillInfo | undefined; state: BridgeDepositState }> {
  const registry = loadRegistry('shipped').networks;
  const config = acrossConfigFromRegistry(['ethereum', 'base'].map((n) => registry[n as 'ethereum' | 'base']));
  const [deposit] = await new AcrossBridgeProvider({ config, rpcUrls: devnet.rpcUrls }).findDeposit('ethereum', originTxHash);
  if (!deposit) throw new Error(`no Across deposit in ${originTxHash}`);
  const fresh = (): AcrossBridgeProvider => new AcrossBridgeProvider({ config, rpcUrls: devnet.rpcUrls });
  return {
    requestId: deposit.requestId,
    fill: await fresh().findFill('base', 1, deposit.requestId),
    state: await fresh().depositState('ethereum', deposit.requestId),
  };
}

const TERMINAL = ['SUCCESS', 'REFUND_STATUS', 'FAILED'];

export interface PortalStatus {
  status: string;
  statusReason?: string;
  crossChainProvider?: string;
  crossChainRequestId?: string;
  destinationTxHashes: string[];
  fromChainId: number;
  toChainId?: number;
}

/** GET /v3/portal/status until a terminal state; the distinct states seen, in order, come with it. */
export async function statusUntilTerminal(
  call: (path: string) => Promise<{ status: number; body: unknown }>,
  orderId: string,
  txHash: string,
  timeoutMs: number,
): Promise<{ record: PortalStatus; seen: string[] }> {
  const seen: string[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(`/v3/portal/status?orderId=${orderId}&txHash=${txHash}`);
    if (r.status === 200) {
      const record = r.body as PortalStatus;
      if (seen.at(-1) !== record.status) seen.push(record.status);
      if (TERMINAL.includes(record.status)) return { record, seen };
    } else if (r.status !== 404 && r.status !== 429) {
      throw new Error(`GET /v3/portal/status answered ${r.status}: ${JSON.stringify(r.body)}`);
    }
    if (Date.now() > until)
      throw new Error(`order ${orderId}: no terminal state within ${timeoutMs} ms (seen: ${seen.join(' -> ') || 'nothing'})`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}
