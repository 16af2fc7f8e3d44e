import type { FastifyInstance } from 'fastify';
import { NEW_KEY_FIELDS, parseQuery } from '@tokensvc/api';
import { ApiKeyNotFoundError, type ApiKeyRecord, type ApiKeysRepository } from '@tokensvc/persistence';
import type { KeyStore } from '../access/key-store';
import { GatewayError } from '../http/errors';
import { bodyRecord, registerEndpoint } from '../http/register-endpoint';
import { ADMIN_OPERATIONS as OPS } from '../operations/admin.endpoints';

/** The JSON shape of a key record (dates as ISO strings). */
function view(r: ApiKeyRecord): Record<string, unknown> {
  const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
  return {
    ...r,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: iso(r.lastUsedAt),
    expiresAt: iso(r.expiresAt),
    revokedAt: iso(r.revokedAt),
  };
}

async function found<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof ApiKeyNotFoundError) throw new GatewayError(404, e.message);
    throw e;
  }
}

const idParam = (params: unknown): string => String((params as { id?: unknown }).id ?? '').slice(0, 128);

/**
 * The admin API over the key repository (guarded by the `admin` access class). Revoking or rotating
 * here drops the key from this replica's cache at once; other replicas follow within the cache TTL.
 */
export function registerAdminRoutes(fastify: FastifyInstance, repo: ApiKeysRepository, keys: KeyStore): void {
  registerEndpoint(fastify, 'listKeys', OPS.listKeys, async ({ query }) => ({ keys: (await repo.list(query.includeRevoked)).map(view) }));

  registerEndpoint(fastify, 'createKey', OPS.createKey, async ({ req }) => {
    const body = parseQuery(NEW_KEY_FIELDS, bodyRecord(req.body));
    const issued = await repo.issue({
      tier: body.tier,
      label: body.label,
      expiresAt: body.expiresAt ?? null,
      rateLimitPerMinute: body.rateLimitPerMinute ?? null,
    });
    return { key: issued.key, record: view(issued.record) };
  });

  registerEndpoint(fastify, 'getKey', OPS.getKey, async ({ query, req }) => {
    const record = await found(repo.resolve(idParam(req.params)));
    const from = new Date(Date.now() - (query.days - 1) * 86_400_000).toISOString().slice(0, 10);
    return { key: view(record), usage: await repo.usage(record.id, from) };
  });

  registerEndpoint(fastify, 'revokeKey', OPS.revokeKey, async ({ req }) => {
    const record = await found(repo.resolve(idParam(req.params)));
    const revoked = await repo.revoke(record.id);
    keys.invalidate(record.id);
    return { key: view(revoked) };
  });

  registerEndpoint(fastify, 'rotateKey', OPS.rotateKey, async ({ query, req }) => {
    const record = await found(repo.resolve(idParam(req.params)));
    const issued = await found(repo.rotate(record.id, query.graceSeconds));
    keys.invalidate(record.id);
    return { key: issued.key, record: view(issued.record) };
  });
}
