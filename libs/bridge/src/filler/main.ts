/**
 * The devnet filler as a process (`npm start` runs it next to the apps):
 *   DEVNET_MANIFEST=.devnet/deployment.json NETWORKS=ethereum,base RPC_URL_ETHEREUM=… RPC_URL_BASE=… \
 *   FILLER_MODE=normal|offline|revert|no-inventory node -r ./tools/register.js libs/bridge/src/filler/main.ts
 * Destination swaps (deposits asking for a token the bridge does not carry) are built by the quote
 * service over NATS (NATS_URL), as GET /v2/portal orders from the filler to itself; FILLER_SWAPS=off
 * leaves such deposits to the refund. SIGTERM/SIGINT finish the pass in progress, then exit.
 */
import { Wallet } from 'ethers';
import { readJsonFile } from '@tokensvc/config';
import { type BridgeManifestLike, devnetBridgeConfig, devnetFillerKey } from '../devnet-config';
import { DevnetBridgeProvider } from '../devnet-provider';
import { loadFillerConfig } from './config';
import { QuoteServiceSwapper } from './destination-swapper';
import { Filler } from './filler';
import { jsonFillerLog } from './log';
import { natsQuoteCalls } from './nats-quote-calls';

async function main(): Promise<void> {
  const cfg = loadFillerConfig();
  const manifest = readJsonFile<BridgeManifestLike>(cfg.manifestPath);
  const config = devnetBridgeConfig(manifest);
  const enabled = Object.keys(cfg.rpcUrls);
  const provider = new DevnetBridgeProvider({ config: { networks: config.networks.filter((n) => enabled.includes(n.network)) }, rpcUrls: cfg.rpcUrls });
  const missing = enabled.filter((n) => !config.networks.some((c) => c.network === n));
  if (missing.length > 0) throw new Error(`the devnet manifest has no bridge on ${missing.join(', ')}`);
  const privateKey = cfg.privateKey ?? devnetFillerKey(manifest);
  const quotes = cfg.swaps === 'on' ? natsQuoteCalls(cfg.natsUrl, cfg.quoteTimeoutMs) : undefined;
  const swapper = quotes ? new QuoteServiceSwapper(quotes, new Wallet(privateKey).address, { slippagePercent: cfg.swapSlippagePercent }) : undefined;
  const filler = new Filler({ provider, privateKey, mode: cfg.mode, pollMs: cfg.pollMs, lookbackSeconds: cfg.lookbackSeconds, swapper, log: jsonFillerLog(cfg.logLevel) });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void filler
      .stop()
      .then(() => quotes?.close())
      .then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  filler.start();
}

main().catch((e: unknown) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', service: 'filler', msg: (e as Error).message })}\n`);
  process.exit(1);
});
