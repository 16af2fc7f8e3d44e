/**
 * deploy/nats/tokensvc-auth.conf: the production NATS `authorization` block, one user per app with
 * the permissions of libs/transport/src/nats-permissions.ts. Passwords are `$TOKENSVC_NATS_PASSWORD_<APP>`
 * references that nats-server reads from its environment (the tokensvc-nats Secret); the file holds
 * no secret. `npm run deploy:check` fails when the file differs from what this prints; regenerate it with
 *
 *   node -r ./tools/register.js tools/deploy/nats-auth.ts > deploy/nats/tokensvc-auth.conf
 */
import { SERVICES } from '@tokensvc/messages';
import { natsPasswordEnv, natsServerConfig, type BusUser } from '@tokensvc/transport';

export const NATS_AUTH_FILE = 'deploy/nats/tokensvc-auth.conf';
/** the users of a deployment: the five apps */
export const DEPLOYED_BUS_USERS: readonly BusUser[] = ['gateway', ...SERVICES];

export function productionNatsAuth(): string {
  const passwords = Object.fromEntries(DEPLOYED_BUS_USERS.map((u) => [u, { env: natsPasswordEnv(u) }]));
  return natsServerConfig({ passwords, users: DEPLOYED_BUS_USERS, authorizationOnly: true });
}

if (require.main === module) process.stdout.write(productionNatsAuth());
