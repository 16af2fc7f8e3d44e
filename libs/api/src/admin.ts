import { query } from './schema/query';
import { q } from './schema/values';
import { MAX_CUSTOM_RATE_PER_MINUTE, TIERS } from './tiers';

/**
 * The fields of a new API key, validated the same way by the admin HTTP API (JSON body) and the
 * `npm run keys` CLI (flags).
 */
export const NEW_KEY_FIELDS = query(
  {
    tier: q.oneOf(TIERS).required(),
    label: q.string({ maxLength: 200 }).required().describe('owner label'),
    expiresAt: q.dateTime().refine((d) => (d.getTime() <= Date.now() ? 'must be in the future' : undefined)),
    rateLimitPerMinute: q.int({ min: 1, max: MAX_CUSTOM_RATE_PER_MINUTE }).describe('custom data rate; enterprise keys only'),
  },
  (_given, v) =>
    v['rateLimitPerMinute'] !== undefined && v['tier'] !== 'enterprise'
      ? 'rateLimitPerMinute is accepted for enterprise keys only'
      : undefined,
);
