/**
 * The chain a devnet ran, kept across a stop and a start (`StartDevnetOptions.keepState`, used by
 * `npm start`): anvil dumps its state on exit (`--dump-state`, on SIGTERM and Ctrl-C alike) into
 * `<stateDir>/live/<network>.state.json`, and the next start loads that instead of the saved
 * build, so the chain goes on where it stopped and stays together with the database indexed from
 * it. The saved build (`<network>.state.json`, shared with the tests) is never written.
 *
 * A live state belongs to one build: `live/live.json` records the build's creation time and code
 * version, and a live state of another build (the devnet was rebuilt) is forgotten.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Network } from '@tokensvc/domain';
import type { DevnetManifest } from './manifest';

export const LIVE_DIR = 'live';
const MARKER = 'live.json';

interface LiveMarker {
  buildCreatedAt: string;
  codeVersion: string;
}

export function liveStateFile(stateDir: string, network: Network): string {
  return join(stateDir, LIVE_DIR, `${network}.state.json`);
}

/** Deletes the kept chains. */
export function forgetLiveStates(stateDir: string): void {
  rmSync(join(stateDir, LIVE_DIR), { recursive: true, force: true });
}

/**
 * Where each network starts from: its live state when one of this build exists, else the build
 * (live states of another build are deleted). Records the build the live states will belong to.
 */
export function prepareLiveStates(stateDir: string, build: DevnetManifest, networks: readonly Network[]): Map<Network, boolean> {
  const dir = join(stateDir, LIVE_DIR);
  const marker: LiveMarker = { buildCreatedAt: build.createdAt, codeVersion: build.codeVersion };
  let saved: LiveMarker | undefined;
  try {
    saved = JSON.parse(readFileSync(join(dir, MARKER), 'utf8')) as LiveMarker;
  } catch {
    saved = undefined;
  }
  if (!saved || saved.buildCreatedAt !== marker.buildCreatedAt || saved.codeVersion !== marker.codeVersion) forgetLiveStates(stateDir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, MARKER), `${JSON.stringify(marker)}\n`);
  return new Map(networks.map((n) => [n, existsSync(liveStateFile(stateDir, n))]));
}
