import { readFileSync } from 'node:fs';
import {
  CATEGORY_BY_FAMILY,
  isNetwork,
  isPlatformFamily,
  NETWORK_INFO,
  placeholderImage,
  type Network,
  type PlatformDefinition,
  type PlatformOption,
} from '@tokensvc/domain';

export type { PlatformDefinition } from '@tokensvc/domain';

interface RawPlatform {
  slug?: unknown;
  name?: unknown;
  family?: unknown;
  addresses?: unknown;
  options?: unknown;
}

/** Every network has the generic `native` and `basic` platforms. */
export function genericPlatforms(network: Network): PlatformDefinition[] {
  return [
    {
      network,
      slug: 'native',
      name: `${NETWORK_INFO[network].nativeSymbol} (native)`,
      image: placeholderImage('native'),
      family: 'native',
      category: 'native',
      addresses: {},
    },
    { network, slug: 'basic', name: 'Basic tokens', image: placeholderImage('basic'), family: 'basic', category: 'basic', addresses: {} },
  ];
}

function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof v !== 'object' || v === null) return out;
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'string') out[k] = x.toLowerCase();
    else if (Array.isArray(x)) x.forEach((item, i) => typeof item === 'string' && (out[`${k}.${i}`] = item.toLowerCase()));
  }
  return out;
}

/** The scalar options of a platform entry (their meaning is the family module's: checked there). */
function optionRecord(v: unknown, where: string): Record<string, PlatformOption> | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new Error(`${where}: options must be an object of strings, numbers and booleans`);
  const out: Record<string, PlatformOption> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'boolean')
      throw new Error(`${where}: option ${k} must be a string, a number or a boolean`);
    out[k] = x;
  }
  return out;
}

/** Parses the platforms of one network from a platforms file or the devnet manifest. */
export function parsePlatforms(network: Network, raw: unknown[]): PlatformDefinition[] {
  return raw.map((entry, i) => {
    const p = entry as RawPlatform;
    if (typeof p.slug !== 'string' || typeof p.name !== 'string' || !isPlatformFamily(p.family)) {
      throw new Error(
        `platform #${i} on ${network} needs a slug, a name and a family (one of native, basic, uniswap-v2, uniswap-v3, erc4626, aave-v3)`,
      );
    }
    const options = optionRecord(p.options, `platform ${p.slug} on ${network}`);
    return {
      network,
      slug: p.slug,
      name: p.name,
      image: placeholderImage(p.slug),
      family: p.family,
      category: CATEGORY_BY_FAMILY[p.family],
      addresses: stringRecord(p.addresses),
      ...(options ? { options } : {}),
    };
  });
}

/**
 * Reads the platforms of the enabled networks from a JSON file whose `networks` is either a list of
 * `{ network, platforms: [...] }` (the devnet manifest) or a map `{ <network>: { platforms: [...] } }`
 * (handier to write by hand for real networks).
 */
export function loadPlatformRegistry(path: string | undefined, enabled: readonly Network[]): PlatformDefinition[] {
  const defs: PlatformDefinition[] = enabled.flatMap(genericPlatforms);
  if (path === undefined) return defs;
  type Entry = { network?: unknown; platforms?: unknown[] };
  const json = JSON.parse(readFileSync(path, 'utf8')) as { networks?: Entry[] | Record<string, Entry> };
  const entries: Array<[unknown, Entry]> = Array.isArray(json.networks)
    ? json.networks.map((e) => [e.network, e])
    : Object.entries(json.networks ?? {});
  for (const [network, entry] of entries) {
    if (!isNetwork(network) || !enabled.includes(network)) continue;
    defs.push(...parsePlatforms(network, entry.platforms ?? []));
  }
  return defs;
}
