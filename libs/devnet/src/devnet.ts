/**
 * startDevnet: one anvil per network, loaded from the saved state when it matches the current
 * code (a few seconds), otherwise deployed and seeded from scratch in parallel, then saved.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { NETWORKS, NETWORK_INFO, type Network } from '@tokensvc/domain';
import { DEFAULT_SEED } from './accounts';
import { type AnvilProcess, startAnvil } from './anvil';
import { buildNetworkIsolated } from './build-worker';
import { DEFAULT_NETWORKS } from './config';
import { forgetLiveStates, liveStateFile, prepareLiveStates } from './live-state';
import { withStateLock } from './lock';
import { type DevnetManifest, type NetworkManifest, MANIFEST_FILE, readManifest, stateFile, writeManifest } from './manifest';
import { codeVersion } from './version';

export const REPO_ROOT = join(__dirname, '..', '..', '..');
export const DEFAULT_STATE_DIR = join(REPO_ROOT, '.devnet');
export const DEFAULT_BASE_PORT = 8545;

export interface StartDevnetOptions {
  /** default ethereum, arbitrum, base */
  networks?: Network[];
  host?: string;
  /** network i of `networks` listens on basePort + i (default 8545) */
  basePort?: number;
  /** saved states and deployment.json (default <repo>/.devnet) */
  stateDir?: string;
  /** ignore saved states and rebuild */
  fresh?: boolean;
  /** interval mining in seconds; default automine (a block per transaction) */
  blockTime?: number;
  /** past block states anvil keeps in memory, for eth_call at a past block (default none) */
  historyStates?: number;
  /**
   * keep the chain across a stop and a start: anvil dumps its state on exit into
   * `<stateDir>/live/` and the next start with keepState loads it (see live-state.ts)
   */
  keepState?: boolean;
  /**
   * unix seconds a build treats as "now" (default the wall clock): with a fixed value the chain,
   * its timestamps included, is a function of the code and the seed alone. A saved state is reused
   * only when it was built with the same value; give it its own `stateDir`.
   */
  buildTime?: number;
  log?: (line: string) => void;
}

export interface DevnetChain {
  network: Network;
  chainId: number;
  rpcUrl: string;
  pid: number;
}

export interface DevnetHandle {
  manifest: DevnetManifest;
  /** by network name */
  rpcUrls: Record<string, string>;
  chains: DevnetChain[];
  /** path of the saved deployment.json this devnet was started from */
  manifestPath: string;
  stop(): Promise<void>;
}

/** Deletes the saved states and manifest, and the kept chains (only those: the folder may hold other tools' files). */
export function resetDevnet(stateDir = DEFAULT_STATE_DIR): void {
  if (!existsSync(stateDir)) return;
  forgetLiveStates(stateDir);
  for (const file of readdirSync(stateDir)) {
    if (file === MANIFEST_FILE || file.endsWith('.state.json') || file.endsWith('.state.json.tmp'))
      rmSync(join(stateDir, file), { force: true });
  }
}

/** Networks whose saved state can be loaded as is. */
function reusable(
  saved: DevnetManifest | undefined,
  networks: readonly Network[],
  stateDir: string,
  version: string,
  buildTime: number | undefined,
): Network[] {
  if (!saved || saved.codeVersion !== version || saved.seed !== DEFAULT_SEED || saved.buildTime !== buildTime) return [];
  return networks.filter((n) => saved.networks.some((m) => m.network === n) && existsSync(stateFile(stateDir, n)));
}

async function ensureStates(
  networks: readonly Network[],
  host: string,
  basePort: number,
  stateDir: string,
  fresh: boolean,
  log: (line: string) => void,
  buildTime?: number,
): Promise<DevnetManifest> {
  const version = codeVersion();
  return withStateLock(
    stateDir,
    () => log(`waiting for another process building ${stateDir}`),
    async () => {
      const saved = fresh ? undefined : readManifest(stateDir);
      const ready = reusable(saved, networks, stateDir, version, buildTime);
      const missing = networks.filter((n) => !ready.includes(n));
      if (missing.length === 0 && saved) return saved;
      log(`building ${missing.join(', ')} from scratch (code version ${version}); this takes a minute`);
      const started = Date.now();
      const built = await Promise.all(
        missing.map((network) =>
          buildNetworkIsolated({
            network,
            host,
            port: basePort + networks.indexOf(network),
            seed: DEFAULT_SEED,
            stateFile: stateFile(stateDir, network),
            buildTime,
            log,
          }),
        ),
      );
      log(`built ${missing.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      // Other networks saved by the same code stay usable.
      const kept: NetworkManifest[] =
        saved && saved.codeVersion === version && saved.buildTime === buildTime
          ? saved.networks.filter((n) => !missing.includes(n.network) && existsSync(stateFile(stateDir, n.network)))
          : [];
      const manifest: DevnetManifest = {
        formatVersion: 1,
        codeVersion: version,
        seed: DEFAULT_SEED,
        createdAt: new Date().toISOString(),
        ...(buildTime === undefined ? {} : { buildTime }),
        networks: [...kept, ...built].sort((a, b) => NETWORKS.indexOf(a.network) - NETWORKS.indexOf(b.network)),
      };
      writeManifest(stateDir, manifest);
      return manifest;
    },
  );
}

export async function startDevnet(opts: StartDevnetOptions = {}): Promise<DevnetHandle> {
  const networks = opts.networks ?? [...DEFAULT_NETWORKS];
  if (new Set(networks).size !== networks.length) throw new Error('networks must not repeat');
  const host = opts.host ?? '127.0.0.1';
  const basePort = opts.basePort ?? DEFAULT_BASE_PORT;
  const stateDir = opts.stateDir ?? DEFAULT_STATE_DIR;
  const log = opts.log ?? (() => undefined);

  const manifest = await ensureStates(networks, host, basePort, stateDir, opts.fresh ?? false, log, opts.buildTime);
  const ageDays = Math.max(...manifest.networks.map((n) => Date.now() / 1000 - n.history.lastTimestamp)) / 86_400;
  // The history stops where the build stopped; say so when "the last 24 h" would look empty.
  if (ageDays > 1)
    log(`saved state is ${ageDays.toFixed(1)} days old, so recent history is empty; rebuild with fresh: true (CLI: --fresh)`);
  const started: AnvilProcess[] = [];
  const live = opts.keepState ? prepareLiveStates(stateDir, manifest, networks) : undefined;
  try {
    await Promise.all(
      networks.map(async (network, i) => {
        const base = {
          host,
          port: basePort + i,
          chainId: NETWORK_INFO[network].chainId,
          blockTime: opts.blockTime,
          historyStates: opts.historyStates,
        };
        const keep = live ? ['--dump-state', liveStateFile(stateDir, network)] : [];
        let anvil: AnvilProcess | undefined;
        if (live?.get(network)) {
          anvil = await startAnvil({ ...base, loadState: liveStateFile(stateDir, network), extraArgs: keep }).catch((e: Error) => {
            // A dump cut short (the machine went down while anvil wrote it): the build, not nothing.
            log(`${network}: the kept chain state does not load (${e.message.slice(0, 200)}); starting from the saved build`);
            return undefined;
          });
          if (anvil) log(`${network}: chain kept from the last run (${liveStateFile(stateDir, network)})`);
        }
        anvil ??= await startAnvil({ ...base, loadState: stateFile(stateDir, network), extraArgs: keep });
        started.push(anvil);
        log(`${network}: chain ${anvil.chainId} at ${anvil.rpcUrl} (pid ${anvil.pid})`);
      }),
    );
  } catch (err) {
    await Promise.all(started.map((a) => a.stop()));
    throw err;
  }
  const byNetwork = new Map(networks.map((n, i) => [n, started.find((a) => a.port === basePort + i)!]));
  const chains: DevnetChain[] = networks.map((network) => {
    const a = byNetwork.get(network)!;
    return { network, chainId: a.chainId, rpcUrl: a.rpcUrl, pid: a.pid };
  });
  const view: DevnetManifest = { ...manifest, networks: manifest.networks.filter((n) => networks.includes(n.network)) };
  return {
    manifest: view,
    rpcUrls: Object.fromEntries(chains.map((c) => [c.network, c.rpcUrl])),
    chains,
    manifestPath: join(stateDir, MANIFEST_FILE),
    stop: async () => {
      // Writing a kept chain's state takes a second or more per network on a busy machine.
      await Promise.all(started.map((a) => a.stop(live ? 60_000 : undefined)));
    },
  };
}
