/**
 * The mainnet-shaped devnet profile: chains with the real chain ids on which the shipped
 * registry's contracts and listed tokens stand at their real addresses. Its saved state and
 * manifest live in their own folder (default `<repo>/.devnet/mainnet-shaped`), apart from today's
 * devnet, and it listens on its own ports (default 9645). The apps run on it in the production
 * configuration (REGISTRY=shipped, no DEVNET_MANIFEST); the manifest written here is for tools and
 * tests only (test accounts, how each address was placed).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { DEFAULT_SEED } from '../accounts';
import { type AnvilProcess, startAnvil } from '../anvil';
import { withStateLock } from '../lock';
import { stateFile } from '../manifest';
import { profileCodeVersion } from '../version';
import { createHash } from 'node:crypto';
import type { RegistryNetwork } from './book';
import { type ProfileNetworkManifest, buildMainnetShaped } from './build';

export const MAINNET_SHAPED = 'mainnet-shaped';
export const MAINNET_SHAPED_NETWORKS: readonly Network[] = ['ethereum', 'arbitrum', 'base'];
export const MAINNET_SHAPED_BASE_PORT = 9645;
export const MAINNET_SHAPED_MANIFEST = 'mainnet-shaped.json';

export interface MainnetShapedManifest {
  profile: typeof MAINNET_SHAPED;
  codeVersion: string;
  seed: string;
  createdAt: string;
  networks: ProfileNetworkManifest[];
}

export interface MainnetShapedOptions {
  /** the shipped registry's networks: `loadRegistry('shipped').networks` of @tokensvc/chain */
  registry: Partial<Record<Network, RegistryNetwork>>;
  /** only networks of MAINNET_SHAPED_NETWORKS (default all of them) */
  networks?: Network[];
  host?: string;
  basePort?: number;
  /** default <repo>/.devnet/mainnet-shaped */
  stateDir?: string;
  fresh?: boolean;
  log?: (line: string) => void;
}

export interface MainnetShapedHandle {
  manifest: MainnetShapedManifest;
  rpcUrls: Partial<Record<Network, string>>;
  manifestPath: string;
  stop(): Promise<void>;
}

export const defaultProfileStateDir = (repoRoot: string): string => join(repoRoot, '.devnet', MAINNET_SHAPED);

function readProfileManifest(file: string): MainnetShapedManifest | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as MainnetShapedManifest;
    return m.profile === MAINNET_SHAPED ? m : undefined;
  } catch {
    return undefined;
  }
}

export async function startMainnetShaped(opts: MainnetShapedOptions): Promise<MainnetShapedHandle> {
  const networks = opts.networks ?? [...MAINNET_SHAPED_NETWORKS];
  const unsupported = networks.filter((n) => !MAINNET_SHAPED_NETWORKS.includes(n));
  if (unsupported.length > 0)
    throw new Error(`the mainnet-shaped profile has ${MAINNET_SHAPED_NETWORKS.join(', ')} only (not ${unsupported.join(', ')})`);
  const host = opts.host ?? '127.0.0.1';
  const basePort = opts.basePort ?? MAINNET_SHAPED_BASE_PORT;
  const stateDir = opts.stateDir ?? defaultProfileStateDir(join(__dirname, '..', '..', '..', '..'));
  const log = opts.log ?? (() => undefined);
  const manifestPath = join(stateDir, MAINNET_SHAPED_MANIFEST);
  // A registry change (new addresses) rebuilds the state, like a code change.
  const version = createHash('sha256')
    .update(profileCodeVersion())
    .update(JSON.stringify(networks.map((n) => opts.registry[n])))
    .digest('hex')
    .slice(0, 16);

  const manifest = await withStateLock(
    stateDir,
    () => log(`waiting for another process building ${stateDir}`),
    async () => {
      const saved = opts.fresh ? undefined : readProfileManifest(manifestPath);
      const usable =
        saved &&
        saved.codeVersion === version &&
        networks.every((n) => saved.networks.some((m) => m.network === n) && existsSync(stateFile(stateDir, n)));
      if (usable) return saved;
      mkdirSync(stateDir, { recursive: true });
      const started = Date.now();
      log(`building the mainnet-shaped ${networks.join(', ')} (code version ${version}); this takes a minute or two`);
      const built: ProfileNetworkManifest[] = [];
      for (const [i, network] of networks.entries()) {
        const registry = opts.registry[network];
        if (!registry) throw new Error(`the registry has no ${network}`);
        built.push(
          await buildMainnetShaped({
            network,
            host,
            port: basePort + i,
            seed: DEFAULT_SEED,
            stateFile: stateFile(stateDir, network),
            registry,
            log,
          }),
        );
      }
      log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const m: MainnetShapedManifest = {
        profile: MAINNET_SHAPED,
        codeVersion: version,
        seed: DEFAULT_SEED,
        createdAt: new Date().toISOString(),
        networks: built,
      };
      writeFileSync(`${manifestPath}.tmp`, `${JSON.stringify(m, null, 2)}\n`);
      renameSync(`${manifestPath}.tmp`, manifestPath);
      return m;
    },
  );

  const started: AnvilProcess[] = [];
  try {
    for (const [i, network] of networks.entries()) {
      const anvil = await startAnvil({
        host,
        port: basePort + i,
        chainId: NETWORK_INFO[network].chainId,
        loadState: stateFile(stateDir, network),
      });
      started.push(anvil);
      log(`${network} (mainnet-shaped): chain ${anvil.chainId} at ${anvil.rpcUrl} (pid ${anvil.pid})`);
    }
  } catch (err) {
    await Promise.all(started.map((a) => a.stop()));
    throw err;
  }
  return {
    manifest: { ...manifest, networks: manifest.networks.filter((n) => networks.includes(n.network)) },
    rpcUrls: Object.fromEntries(networks.map((n, i) => [n, started[i]!.rpcUrl])),
    manifestPath,
    stop: async () => {
      await Promise.all(started.map((a) => a.stop()));
    },
  };
}
