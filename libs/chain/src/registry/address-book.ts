import type { Network } from '@tokensvc/domain';
import { loadManifestNetworks, type ManifestNetworkInfo } from '../network-manifest';
import { loadPlatformRegistry, type PlatformDefinition } from '../platform-registry';
import { loadRegistry, registryNetworks, registryPlatforms } from './shipped-registry';

/**
 * Where the apps take protocol addresses from: the devnet manifest (DEVNET_MANIFEST, set by the
 * devnet tooling), else the registry (REGISTRY=shipped or a registry file), else nothing beyond
 * the generic native/basic platforms. The config refuses both at once.
 */
export interface AddressBookSetting {
  readonly devnetManifest: string | undefined;
  /** `shipped` or the path of a registry file */
  readonly registry?: string | undefined;
}

/** The address book in use, in words for messages: which setting names it, or what to set. */
export function addressBookName(setting: AddressBookSetting): string {
  if (setting.devnetManifest !== undefined) return `the devnet manifest (DEVNET_MANIFEST=${setting.devnetManifest})`;
  if (setting.registry !== undefined) return `the registry (REGISTRY=${setting.registry})`;
  return "none is set (REGISTRY=shipped holds the real networks' addresses)";
}

export function loadPlatforms(setting: AddressBookSetting, enabled: readonly Network[]): PlatformDefinition[] {
  if (setting.devnetManifest === undefined && setting.registry !== undefined)
    return registryPlatforms(loadRegistry(setting.registry), enabled);
  return loadPlatformRegistry(setting.devnetManifest, enabled);
}

/** Listed tokens, wrapped native and (devnet only) the first block of history, per network. */
export function loadNetworkFacts(setting: AddressBookSetting): Map<Network, ManifestNetworkInfo> {
  if (setting.devnetManifest === undefined && setting.registry !== undefined) return registryNetworks(loadRegistry(setting.registry));
  return loadManifestNetworks(setting.devnetManifest);
}
