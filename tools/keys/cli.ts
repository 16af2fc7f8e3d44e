/**
 * `npm run keys -- <command>`: manage API keys in the database at DATABASE_URL.
 *
 *   create --tier free|paid|enterprise --label <owner> [--expires <ISO date>] [--rate <per minute, enterprise>]
 *   list [--all]                      active keys (--all: revoked too)
 *   revoke <id|prefix>
 *   rotate <id|prefix> [--grace <seconds>]
 *   usage <id|prefix> [--days <n>]    calls per UTC day
 *
 * A new key is printed once; only its SHA-256 is stored. Gateways stop accepting a revoked key
 * within their key cache TTL (5 s).
 */
import { parseArgs } from 'node:util';
import { Pool } from 'pg';
import { NEW_KEY_FIELDS, parseQuery, QueryError } from '@tokensvc/api';
import { EnvReader } from '@tokensvc/config';
import { ApiKeyNotFoundError, ApiKeysRepository, type ApiKeyRecord, type IssuedApiKey } from '@tokensvc/persistence';

const USAGE =
  'usage: npm run keys -- create --tier <free|paid|enterprise> --label <owner> [--expires <ISO date>] [--rate <n>] | list [--all] | revoke <id|prefix> | rotate <id|prefix> [--grace <seconds>] | usage <id|prefix> [--days <n>]';

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

function row(r: ApiKeyRecord): string {
  const state = r.revokedAt ? `revoked ${r.revokedAt.toISOString()}` : r.expiresAt ? `expires ${r.expiresAt.toISOString()}` : 'active';
  const rate = r.rateLimitPerMinute === null ? '' : ` rate=${r.rateLimitPerMinute}/min`;
  return `${r.id}  ${r.displayPrefix}…  ${r.tier.padEnd(10)} ${JSON.stringify(r.label)}  created ${r.createdAt.toISOString()}  last used ${r.lastUsedAt?.toISOString() ?? 'never'}  ${state}${rate}`;
}

function printIssued({ key, record }: IssuedApiKey): void {
  out(`key:   ${key}`);
  out('       (shown only now: store it; the service keeps only its hash)');
  out(`id:    ${record.id}`);
  out(`tier:  ${record.tier}   label: ${JSON.stringify(record.label)}${record.rotatedFrom ? `   replaces: ${record.rotatedFrom}` : ''}`);
}

function intFlag(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new QueryError([`--${name} must be a whole number, got "${value}"`]);
  return n;
}

async function run(repo: ApiKeysRepository, argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tier: { type: 'string' },
      label: { type: 'string' },
      expires: { type: 'string' },
      rate: { type: 'string' },
      all: { type: 'boolean' },
      grace: { type: 'string' },
      days: { type: 'string' },
    },
  });
  const [command, target] = positionals;
  switch (command) {
    case 'create': {
      const fields = parseQuery(NEW_KEY_FIELDS, {
        tier: values.tier,
        label: values.label,
        expiresAt: values.expires,
        rateLimitPerMinute: values.rate,
      });
      printIssued(
        await repo.issue({
          tier: fields.tier,
          label: fields.label,
          expiresAt: fields.expiresAt ?? null,
          rateLimitPerMinute: fields.rateLimitPerMinute ?? null,
        }),
      );
      return;
    }
    case 'list': {
      const keys = await repo.list(values.all ?? false);
      for (const k of keys) out(row(k));
      out(`${keys.length} key${keys.length === 1 ? '' : 's'}`);
      return;
    }
    case 'revoke':
    case 'rotate':
    case 'usage': {
      if (!target) throw new QueryError([`${command} needs a key id or display prefix`]);
      const record = await repo.resolve(target);
      if (command === 'revoke') out(row(await repo.revoke(record.id)));
      else if (command === 'rotate') printIssued(await repo.rotate(record.id, intFlag(values.grace, 'grace', 0)));
      else {
        const days = intFlag(values.days, 'days', 31);
        const from = new Date(Date.now() - Math.max(0, days - 1) * 86_400_000).toISOString().slice(0, 10);
        for (const u of await repo.usage(record.id, from)) out(`${u.day}  ${u.calls}`);
      }
      return;
    }
    default:
      throw new QueryError([command ? `unknown command "${command}"` : 'no command given']);
  }
}

async function main(): Promise<void> {
  const env = new EnvReader(process.env);
  const databaseUrl = env.url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/tokensvc', ['postgres:', 'postgresql:']);
  env.done();
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  try {
    await run(new ApiKeysRepository(pool), process.argv.slice(2));
  } finally {
    await pool.end();
  }
}

main().catch((e: unknown) => {
  const known =
    e instanceof QueryError || e instanceof ApiKeyNotFoundError || (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
  process.stderr.write(
    `${known ? (e as Error).message : `keys: ${(e as Error).message}`}\n${known && e instanceof QueryError ? `${USAGE}\n` : ''}`,
  );
  process.exit(1);
});
