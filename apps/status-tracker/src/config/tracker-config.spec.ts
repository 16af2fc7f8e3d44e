import { loadTrackerConfig } from './tracker-config';

/** CROSS_CHAIN_BRIDGE in the tracker: which bridge is followed, and on which networks. */
describe('tracker config: CROSS_CHAIN_BRIDGE', () => {
  const rpc = { RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', RPC_URL_BASE: 'http://127.0.0.1:8547' };

  it('is across by default: without a manifest or a registry, nothing is followed and the tracker still starts; none follows nothing', () => {
    const cfg = loadTrackerConfig({ NETWORKS: 'ethereum,base', ...rpc });
    expect(cfg).toMatchObject({ crossChainBridge: 'across', across: { networks: [] }, bridgeNetworks: [] });
    expect(loadTrackerConfig({ NETWORKS: 'ethereum,base', ...rpc, REGISTRY: 'shipped', CROSS_CHAIN_BRIDGE: 'none' })).toMatchObject({
      crossChainBridge: 'none',
      bridgeNetworks: [],
    });
    expect(loadTrackerConfig({ NETWORKS: 'ethereum,base', ...rpc, REGISTRY: 'shipped' }).bridgeNetworks).toEqual(['ethereum', 'base']);
  });

  it('across from the shipped registry: the enabled networks are followed', () => {
    const cfg = loadTrackerConfig({ NETWORKS: 'ethereum,base', ...rpc, REGISTRY: 'shipped', CROSS_CHAIN_BRIDGE: 'across' });
    expect(cfg.crossChainBridge).toBe('across');
    expect(cfg.bridgeNetworks).toEqual(['ethereum', 'base']);
    expect(cfg.across.networks.find((n) => n.network === 'ethereum')!.spokePool).toBe('0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5');
  });

  it("refuses the devnet bridge (gone: the devnet has Across's own SpokePools)", () => {
    expect(() => loadTrackerConfig({ NETWORKS: 'ethereum,base', ...rpc, CROSS_CHAIN_BRIDGE: 'devnet' })).toThrow(
      /CROSS_CHAIN_BRIDGE must be one of across, none, got "devnet"/,
    );
  });

  it('refuses to start on across without SpokePools, saying what to set', () => {
    expect(() => loadTrackerConfig({ NETWORKS: 'ethereum,base', ...rpc, CROSS_CHAIN_BRIDGE: 'across' })).toThrow(
      /CROSS_CHAIN_BRIDGE=across needs the Across SpokePools: set DEVNET_MANIFEST .* or REGISTRY=shipped/,
    );
    expect(() =>
      loadTrackerConfig({
        NETWORKS: 'ethereum',
        RPC_URL_ETHEREUM: rpc.RPC_URL_ETHEREUM,
        REGISTRY: 'shipped',
        CROSS_CHAIN_BRIDGE: 'across',
      }),
    ).toThrow(/needs Across SpokePools on at least two enabled networks \(NETWORKS\); the registry \(REGISTRY\) has them only on ethereum/);
  });
});
