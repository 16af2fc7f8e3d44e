import { endpoint, NEW_KEY_FIELDS, q, query, s, TIERS } from '@tokensvc/api';

const TAG = 'Admin';
const ID = { id: 'key id (uuid) or display prefix (tsk_live_xxxxxx)' };

const ApiKeyView = s.named(
  'ApiKey',
  s.object({
    id: s.string({ format: 'uuid' }),
    displayPrefix: s.string({ description: 'the first characters of the key: safe to show and log' }),
    tier: s.literal(TIERS),
    label: s.string(),
    rateLimitPerMinute: s.nullable(s.integer({ description: 'custom data rate (enterprise)' })),
    createdAt: s.dateTime(),
    lastUsedAt: s.nullable(s.dateTime({ description: 'updated with the batched usage writes (seconds late)' })),
    expiresAt: s.nullable(s.dateTime()),
    revokedAt: s.nullable(s.dateTime()),
    rotatedFrom: s.nullable(s.string({ description: 'id of the key this one replaced' })),
  }),
);

const Issued = s.object({ key: s.string({ description: 'the API key; shown only in this answer' }), record: ApiKeyView });

export const listKeys = endpoint({
  method: 'GET',
  path: '/admin/keys',
  summary: 'List API keys',
  tag: TAG,
  access: 'admin',
  query: query({ includeRevoked: q.boolean().default(false) }),
  response: s.object({ keys: s.array(ApiKeyView) }),
});

export const createKey = endpoint({
  method: 'POST',
  path: '/admin/keys',
  summary: 'Issue an API key (the key is in this answer only)',
  tag: TAG,
  access: 'admin',
  status: 201,
  query: query({}),
  body: NEW_KEY_FIELDS,
  response: Issued,
});

export const getKey = endpoint({
  method: 'GET',
  path: '/admin/keys/:id',
  summary: 'One API key with its calls per UTC day',
  tag: TAG,
  access: 'admin',
  pathParams: ID,
  query: query({ days: q.int({ min: 1, max: 366 }).default(31).describe('days of usage to return') }),
  response: s.object({ key: ApiKeyView, usage: s.array(s.object({ day: s.string({ format: 'date' }), calls: s.integer() })) }),
  extraErrors: [404],
});

export const revokeKey = endpoint({
  method: 'DELETE',
  path: '/admin/keys/:id',
  summary: 'Revoke an API key',
  tag: TAG,
  access: 'admin',
  pathParams: ID,
  query: query({}),
  response: s.object({ key: ApiKeyView }),
  extraErrors: [404],
});

export const rotateKey = endpoint({
  method: 'POST',
  path: '/admin/keys/:id/rotate',
  summary: 'Replace an API key; the old one is revoked, or expires after a grace period',
  tag: TAG,
  access: 'admin',
  status: 201,
  pathParams: ID,
  query: query({ graceSeconds: q.int({ min: 0, max: 30 * 24 * 3600 }).default(0).describe('seconds the old key keeps working') }),
  response: Issued,
  extraErrors: [404],
});

export const ADMIN_OPERATIONS = { listKeys, createKey, getKey, revokeKey, rotateKey } as const;
