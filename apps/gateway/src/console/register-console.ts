import type { FastifyInstance } from 'fastify';
import { registerConsoleFiles } from './console-static';
import type { ConsoleSettings } from './console-settings';
import { registerIndexingRoute } from './indexing-route';
import { registerUsageRoute, type UsageDeps } from './usage-route';

/**
 * The console on the public listener: its page and files, the calling key's usage and the
 * indexing progress. The key management part is served by the admin listener (see admin-server).
 */
export function registerConsole(fastify: FastifyInstance, settings: ConsoleSettings, usage: UsageDeps): void {
  registerConsoleFiles(fastify, settings.dir, 'index.html', { sourceMaps: settings.sourceMaps });
  registerUsageRoute(fastify, usage);
  registerIndexingRoute(fastify, settings.indexerStatusUrl);
}
