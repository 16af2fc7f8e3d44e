import type { FastifyInstance } from 'fastify';
import type { IndexingProgress } from '@tokensvc/api';
import { GatewayError } from '../http/errors';
import { registerEndpoint } from '../http/register-endpoint';
import { CONSOLE_OPERATIONS as OPS } from '../operations/console.endpoints';

/** one read of the indexer serves every caller for this long */
const CACHE_MS = 1000;
const TIMEOUT_MS = 2000;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Only the documented fields, typed, from what the indexer answered (nothing else is passed on). */
function progressOf(raw: unknown): IndexingProgress[] {
  const networks = (raw as { networks?: unknown } | null)?.networks;
  if (!Array.isArray(networks)) throw new GatewayError(503, 'the indexer status answer has no networks list');
  return networks
    .filter(
      (n): n is Record<string, unknown> => typeof n === 'object' && n !== null && typeof (n as { network?: unknown }).network === 'string',
    )
    .map((n) => ({
      network: n['network'] as string,
      head: numOrNull(n['head']),
      cursor: numOrNull(n['cursor']),
      lag: numOrNull(n['lag']),
      blocksPerSecond: num(n['blocksPerSecond']),
      eventsPerSecond: num(n['eventsPerSecond']),
      etaSeconds: numOrNull(n['etaSeconds']),
      percent: num(n['percent']),
      caughtUp: n['caughtUp'] === true,
    }));
}

/**
 * GET /v3/indexing/status: read-only, forwards the indexer's own progress report (its health
 * port's `GET /status`); concurrent callers within a second share one read.
 */
export function registerIndexingRoute(fastify: FastifyInstance, statusUrl: string): void {
  let last: { at: number; value: Promise<{ readAt: string; networks: IndexingProgress[] }> } | undefined;
  const read = async (): Promise<{ readAt: string; networks: IndexingProgress[] }> => {
    let res: Response;
    try {
      res = await fetch(statusUrl, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    } catch (e) {
      const timedOut = (e as Error).name === 'TimeoutError';
      throw new GatewayError(
        timedOut ? 504 : 503,
        `the indexer's status (INDEXER_STATUS_URL) ${timedOut ? `did not answer within ${TIMEOUT_MS} ms` : 'is unreachable'}; retry shortly`,
      );
    }
    if (!res.ok) throw new GatewayError(503, `the indexer's status answered HTTP ${res.status}; retry shortly`);
    return { readAt: new Date().toISOString(), networks: progressOf(await res.json().catch(() => null)) };
  };
  registerEndpoint(fastify, 'indexingStatus', OPS.indexingStatus, async () => {
    const now = Date.now();
    if (!last || now - last.at >= CACHE_MS) {
      const value = read();
      last = { at: now, value };
      // a failure is not served to the next second's callers
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  });
}
