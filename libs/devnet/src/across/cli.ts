/**
 * The devnet's Across relayer and data worker as a process, next to a running devnet:
 *   node -r ./tools/register.js libs/devnet/src/across/cli.ts [--manifest .devnet/deployment.json]
 *     [--rpc ethereum=http://127.0.0.1:8545,arbitrum=…,base=…] [--port 8545]
 *     [--mode normal|offline|slow|partial-inventory] [--slow-ms 3000] [--max-fill <units>]
 *     [--fund] [--bundle-every 10] [--from-head]
 * Without --rpc, network i of the manifest is at --port + i (how `npm run devnet -- up` numbers them).
 * --fund mints the relayer's inventory first; --bundle-every runs the data worker (refunds of expired
 * deposits, relayer repayments) every so many seconds. The relayer reads deposits from the
 * manifest's deploy block (a restarted relayer misses nothing), or from the head with --from-head;
 * the data worker from the head. Ctrl-C stops both.
 */
import { readFileSync } from 'node:fs';
import type { Network } from '@tokensvc/domain';
import { DEFAULT_BASE_PORT, DEFAULT_STATE_DIR } from '../devnet';
import { type DevnetManifest, MANIFEST_FILE } from '../manifest';
import { AcrossDataWorker } from './dataworker';
import { acrossRelayerAccount, fundAcrossRelayer } from './inventory';
import { AcrossRelayer, type AcrossRelayerMode } from './relayer';
import { acrossNetworks } from './spoke';

const MODES: readonly AcrossRelayerMode[] = ['normal', 'offline', 'slow', 'partial-inventory'];

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const log = (line: string, fields?: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), msg: line, ...fields })}\n`);
};

async function main(args: string[]): Promise<void> {
  const manifest = JSON.parse(
    readFileSync(option(args, '--manifest') ?? `${DEFAULT_STATE_DIR}/${MANIFEST_FILE}`, 'utf8'),
  ) as DevnetManifest;
  const port = Number(option(args, '--port') ?? DEFAULT_BASE_PORT);
  const rpcArg = option(args, '--rpc');
  const rpcUrls: Partial<Record<Network, string>> = rpcArg
    ? Object.fromEntries(rpcArg.split(',').map((pair) => pair.split('=') as [Network, string]))
    : Object.fromEntries(manifest.networks.map((n, i) => [n.network, `http://127.0.0.1:${port + i}`]));
  const mode = (option(args, '--mode') ?? 'normal') as AcrossRelayerMode;
  if (!MODES.includes(mode)) throw new Error(`unknown mode ${mode} (${MODES.join(', ')})`);
  const networks = acrossNetworks(manifest, rpcUrls);
  // The relayer reads deposits from the manifest's deploy block (before the SpokePools), so a
  // restarted relayer still fills what was deposited while it was down (a fill is checked against
  // the pool's fill status first: never twice); --from-head skips them. The data worker keeps what
  // it paid in memory only, so it starts at the head: a restarted one never pays a deposit twice,
  // and leaves the deposits that expired while it was down unrefunded.
  const fromBlocks = args.includes('--from-head')
    ? undefined
    : Object.fromEntries(manifest.networks.map((n) => [n.network, n.history?.deployBlock ?? 0]));
  if (networks.length === 0) throw new Error('the manifest has no Across SpokePool on any network with an RPC URL; rebuild the devnet');
  const account = acrossRelayerAccount(manifest.seed);
  if (args.includes('--fund')) await fundAcrossRelayer({ manifest, rpcUrls, relayerKey: account.privateKey });
  const maxFill = option(args, '--max-fill');
  const relayer = new AcrossRelayer({
    networks,
    relayerKey: account.privateKey,
    mode,
    slowDelayMs: Number(option(args, '--slow-ms') ?? 3_000),
    maxFillAmount: maxFill ? BigInt(maxFill) : undefined,
    fromBlocks,
    log,
  });
  await relayer.start();
  const every = option(args, '--bundle-every');
  log('relayer started', {
    address: relayer.address,
    mode,
    networks: networks.map((n) => n.network),
    bundleEverySeconds: every ? Number(every) : undefined,
  });
  const worker = every ? new AcrossDataWorker({ networks, log }) : undefined;
  await worker?.init();
  const timer = worker
    ? setInterval(
        () => {
          worker.runBundle().then(
            (b) => b.root && log('bundle', { root: b.root, payments: b.payments.length }),
            (err: Error) => log('bundle failed', { err: err.message }),
          );
        },
        Number(every) * 1000,
      )
    : undefined;
  const stop = (): void => {
    clearInterval(timer);
    worker?.close();
    void relayer.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
