import { isAbsolute, join } from 'node:path';
import { DEFAULT_HEALTH_PORTS } from '@tokensvc/config';

/** Where the console's files are and where the indexer's progress is read. */
export interface ConsoleSettings {
  /** the console build's output folder (index.html, admin.html, assets/) */
  readonly dir: string;
  /** the indexer's `GET /status` on its health port */
  readonly indexerStatusUrl: string;
  /** serve the bundles' source maps (`.map`): CONSOLE_SOURCE_MAPS=true, off by default (production) */
  readonly sourceMaps?: boolean;
}

/**
 * CONSOLE_DIR (default `dist/console` under the working directory: where `npm run console:build`
 * writes), INDEXER_STATUS_URL (default the indexer's default health port on this host) and
 * CONSOLE_SOURCE_MAPS (`true` serves the build's `.map` files, for debugging; default `false`: a
 * production gateway does not publish the console's source).
 */
export function loadConsoleSettings(env: NodeJS.ProcessEnv): ConsoleSettings {
  const dir = env['CONSOLE_DIR']?.trim() || join(process.cwd(), 'dist', 'console');
  const indexerStatusUrl = env['INDEXER_STATUS_URL']?.trim() || `http://127.0.0.1:${DEFAULT_HEALTH_PORTS.indexer}/status`;
  const url = new URL(indexerStatusUrl); // a malformed URL stops the gateway at boot, saying which variable
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`INDEXER_STATUS_URL must be an http(s) URL, got "${indexerStatusUrl.slice(0, 80)}"`);
  const maps = env['CONSOLE_SOURCE_MAPS']?.trim() || 'false';
  if (maps !== 'true' && maps !== 'false') throw new Error(`CONSOLE_SOURCE_MAPS must be true or false, got "${maps.slice(0, 80)}"`);
  return { dir: isAbsolute(dir) ? dir : join(process.cwd(), dir), indexerStatusUrl, sourceMaps: maps === 'true' };
}
