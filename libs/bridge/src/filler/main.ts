/**
 * The devnet filler as a process (`npm start` runs it next to the apps):
 *   DEVNET_MANIFEST=.devnet/deployment.json NETWORKS=ethereum,base RPC_URL_ETHEREUM=… RPC_URL_BASE=… \
 *   FILLER_MODE=normal|offline|revert|no-inventory node -r ./tools/register.js libs/bridge/src/filler/main.ts
 * SIGTERM/SIGINT finish the pass in progress, then exit.
 */
import { readJsonFile } from '@tokensvc/config';
import { type BridgeManifestLike, devnetBridgeConfig, devnetFillerKey } from '../devnet-config';
import { DevnetBridgeProvider } from '../devnet-provider';
import { loadFillerConfig } from './config';
import { Filler } from './filler';
import { jsonFillerLog } from './log';

async function main(): Promise<void> {
  const cfg = loadFillerConfig();
  const manifest = readJsonFile<BridgeManifestLike>(cfg.manifestPath);
  const config = devnetBridgeConfig(manifest);
  const enabled = Object.keys(cfg.rpcUrls);
  const provider = new DevnetBridgeProvider({ config: { networks: config.networks.filter((n) => enabled.includes(n.network)) }, rpcUrls: cfg.rpcUrls });
  const missing = enabled.filter((n) => !config.networks.some((c) => c.network === n));
  if (missing.length > 0) throw new Error(`the devnet manifest has no bridge on ${missing.join(', ')}`);
  const filler = new Filler({ provider, privateKey: cfg.privateKey ?? devnetFillerKey(manifest), mode: cfg.mode, pollMs: cfg.pollMs, lookbackSeconds: cfg.lookbackSeconds, log: jsonFillerLog(cfg.logLevel) });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void filler.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  filler.start();
}

main().catch((e: unknown) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', service: 'filler', msg: (e as Error).message })}\n`);
  process.exit(1);
});
