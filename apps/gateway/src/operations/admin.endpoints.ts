import { Type } from '@sinclair/typebox';
import { dateTime, endpoint, NEW_KEY_FIELDS, nullable, q, query, stringEnum, TIERS } from '@tokensvc/api';

const TAG = 'Admin';
const ID = { id: 'key id (uuid) or display prefix (tsk_live_xxxxxx)' };

/** An API key as the admin API shows it (the admin API is not in the public document, so the model is not named there). */
const ApiKeyView = Type.Object({
  id: Type.String({ format: 'uuid' }),
  displayPrefix: Type.String({ description: 'the first characters of the key: safe to show and log' }),
  tier: stringEnum(TIERS),
  label: Type.String(),
  rateLimitPerMinute: nullable(Type.Integer({ description: 'custom data rate (enterprise)' })),
  createdAt: dateTime(),
  lastUsedAt: nullable(dateTime({ description: 'updated with the batched usage writes (seconds late)' })),
  expiresAt: nullable(dateTime()),
  revokedAt: nullable(dateTime()),
  rotatedFrom: nullable(Type.String({ description: 'id of the key this one replaced' })),
});

const Issued = Type.Object({ key: Type.String({ description: 'the API key; shown only in this answer' }), record: ApiKeyView });

export const listKeys = endpoint({
  method: 'GET',
  path: '/admin/keys',
  summary: 'List API keys',
  tag: TAG,
  access: 'admin',
  query: query({ includeRevoked: q.boolean().default(false) }),
  response: Type.Object({ keys: Type.Array(ApiKeyView) }),
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
  response: Type.Object({
    key: ApiKeyView,
    usage: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), calls: Type.Integer() })),
  }),
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
  response: Type.Object({ key: ApiKeyView }),
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
  query: query({
    graceSeconds: q
      .int({ min: 0, max: 30 * 24 * 3600 })
      .default(0)
      .describe('seconds the old key keeps working'),
  }),
  response: Issued,
  extraErrors: [404],
});

export const ADMIN_OPERATIONS = { listKeys, createKey, getKey, revokeKey, rotateKey } as const;
