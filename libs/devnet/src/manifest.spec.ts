import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DevnetManifest,
  type NetworkManifest,
  manifestAcross,
  manifestPlatform,
  manifestToken,
  networkManifest,
  platformAddress,
  readManifest,
  writeManifest,
} from './manifest';

const net = {
  network: 'base',
  chainId: 8453,
  tokens: [{ symbol: 'USDC', name: 'USD Coin', decimals: 6, address: '0x1', priceUsd: 1 }],
  platforms: [
    { slug: 'uniswap-v2', name: 'Uniswap V2', family: 'uniswap-v2', addresses: { router: '0x2' }, pools: [], vaults: [], markets: [] },
  ],
  contracts: { router: '0x3', executor: '0x4', acrossSpokePool: '0x5', acrossMulticallHandler: '0x6' },
} as unknown as NetworkManifest;
const manifest: DevnetManifest = { formatVersion: 1, codeVersion: 'abc', seed: 's', createdAt: '2025-01-01T00:00:00Z', networks: [net] };

describe('manifest helpers', () => {
  it('finds networks, tokens, platforms and addresses or says what is missing', () => {
    expect(networkManifest(manifest, 'base')).toBe(net);
    expect(() => networkManifest(manifest, 'ethereum')).toThrow(/no ethereum \(has base\)/);
    expect(manifestToken(net, 'USDC').decimals).toBe(6);
    expect(() => manifestToken(net, 'DAI')).toThrow(/DAI/);
    const v2 = manifestPlatform(net, 'uniswap-v2');
    expect(platformAddress(v2, 'router')).toBe('0x2');
    expect(() => platformAddress(v2, 'factory')).toThrow(/factory/);
  });

  it("names Across's contracts, and says to rebuild when a manifest predates them", () => {
    expect(manifestAcross(net)).toEqual({ spokePool: '0x5', multicallHandler: '0x6' });
    const old = { ...net, contracts: { router: '0x3', executor: '0x4' } } as unknown as NetworkManifest;
    expect(() => manifestAcross(old)).toThrow(/base has no Across contracts.*rebuild/);
  });

  it('writes and reads deployment.json, ignoring unknown formats', () => {
    const dir = mkdtempSync(join(tmpdir(), 'devnet-manifest-'));
    expect(readManifest(dir)).toBeUndefined();
    writeManifest(dir, manifest);
    expect(readManifest(dir)).toEqual(manifest);
    writeManifest(dir, { ...manifest, formatVersion: 2 } as unknown as DevnetManifest);
    expect(readManifest(dir)).toBeUndefined();
  });
});
