import { randomBytes } from 'node:crypto';
import { INFRA } from './infra-urls';

/** A unique database URL per test file; the caller migrates it and drops it in afterAll. */
export function createTestDatabaseUrl(label: string): string {
  const u = new URL(INFRA.postgres);
  u.pathname = `/tokensvc_t_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  return u.toString();
}
