import { join } from 'node:path';
import { startDevnet, type DevnetHandle } from '@tokensvc/devnet';
import { INFRA } from './infra-urls';
import { tcpReachableUrl } from './net';

export const REPO_ROOT = join(__dirname, '..', '..', '..');
/**
 * Ports of the test devnet: apart from `npm start`'s 8545.. so both can run at once.
 * `TEST_DEVNET_BASE_PORT` moves it, so two test runs on one machine do not collide.
 */
export const TEST_DEVNET_BASE_PORT = Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545);

export async function prepareTestInfrastructure(): Promise<DevnetHandle> {
  const missing: string[] = [];
  for (const [name, url] of Object.entries(INFRA)) if (!(await tcpReachableUrl(url))) missing.push(`${name} at ${url}`);
  if (missing.length > 0)
    throw new Error(
      `tests need ${missing.join(', ')}; start them (see docs/running.md "What it needs") or run \`docker compose up -d postgres redis nats\``,
    );
  const started = Date.now();
  const handle = await startDevnet({
    basePort: TEST_DEVNET_BASE_PORT,
    stateDir: join(REPO_ROOT, '.devnet'),
    log: (line) => process.stderr.write(`[devnet] ${line}\n`),
  });
  process.env['TEST_DEVNET_RPC_URLS'] = JSON.stringify(handle.rpcUrls);
  process.env['TEST_DEVNET_MANIFEST'] = join(REPO_ROOT, '.devnet', 'deployment.json');
  process.stderr.write(`[devnet] ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return handle;
}
