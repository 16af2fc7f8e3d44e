/**
 * The database's tables as documentation: what each one is for (written here, by hand), and what
 * is read from the schema and the code: its columns and indexes (from a database migrated from
 * scratch) and which apps and libraries write and read it (the SQL statements naming it in their
 * sources). `npm run db:doc` writes libs/persistence/TABLES.md; tables-doc.int-spec.ts fails when
 * the committed file differs from what the migrations and the code give now.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Client } from 'pg';

export const REPO_ROOT = join(__dirname, '..', '..');
export const TABLES_DOC = join(REPO_ROOT, 'libs', 'persistence', 'TABLES.md');

/** What each table holds, in a sentence; every table of the schema must have one. */
export const TABLE_PURPOSES: Readonly<Record<string, string>> = {
  networks:
    "The networks the service serves (chain id, name, enabled), synced from the address book at the indexer's start (TypeORM entity, through `CatalogRepository`).",
  platforms: 'The platforms (protocol deployments) per network with their contract addresses, synced like `networks` (TypeORM entity).',
  blocks: 'Every indexed block header (number, hash, parent, timestamp) per network: the reorg check compares the chain with it.',
  index_cursors:
    'One row per network: the indexed head (block, hash, reorg epoch), the finalised block, and what has been published to JetStream (`published_seq`, `published_finalized`).',
  indexer_leases: 'The lease that makes one indexer replica the writer of a network (hot standby: the others wait for it to expire).',
  tokens:
    'Every token the service describes (basic, native, pool shares, vault shares, lending positions): metadata, price, liquidity, supply, APY, reserves, rolling metrics, `history_from_block`.',
  pools:
    "Every pool's latest state (V2 reserves; V3 sqrtPrice, liquidity, tick) with the block and log of its last change and `change_seq`, the order JetStream publishing follows.",
  pool_ticks: "Initialised ticks of V3 pools (liquidity net and gross): the quote service's routing reads them.",
  pool_tick_deltas: 'Per-block tick changes, kept for the blocks a reorg may still undo.',
  pool_state_history: 'Pool states before each change, kept for the blocks a reorg may still undo (rollback restores them).',
  transfers: 'ERC-20 and native transfers: holders, balances history and activity derive from them.',
  balances: 'Current balance per (network, token, owner), with the block it is from and the prior balances a reorg may need.',
  activities: 'The activity feed of a token: swaps, mints, burns, deposits, withdrawals, with amounts and USD values.',
  swap_volumes:
    "DEX swap volume (USD cents, swap count) of basic and native tokens per token and block, from every indexed pool's swaps: " +
    'their volumeUsd1d/7d and candle volumes.',
  price_points: 'Price observations per token and block, the source of candles and of the prices at a block.',
  candles:
    "OHLC candles per token, resolution and bucket, with the token's figures (liquidity, supply, APYs, volume) at the bucket's close.",
  api_keys: 'API keys (hashed), tier and label; issued by `npm run keys`, checked by the gateway.',
  api_key_usage: "Calls per key and day (the gateway's usage accounting, shown in the console).",
  orders:
    'Every order the quote service built (context, transaction, signed-order variant, calls), kept until `keep_until`: relayed signed orders and cross-chain status refer to it.',
  relay_submissions:
    'Signed orders the quote service relays: one row per order submitted, its state, the relayer account and nonce it holds, and the mined outcome.',
  relay_transactions:
    'Each transaction the relayer signed for a submission (the order, its fee bumps and cancellations), with the raw bytes to re-send.',
  relayer_nonces: 'The next nonce of each relayer account per network, reconciled with the chain at start.',
  cross_chain_orders: 'Cross-chain orders the status tracker follows: origin transaction, deposit, fill, refund, status and terminal time.',
  status_events: 'Every status change of a cross-chain order, in order: the source of webhooks, SSE and the status history.',
  tracker_bridge_events: 'Bridge events (deposits, fills, refunds) the status tracker followed on chain, reorg-aware.',
  tracker_follow_blocks: "The block hashes the tracker's event following saw, to detect reorgs under its events.",
  tracker_follow_cursors: "How far the tracker's event following has read each network.",
  webhooks:
    'Webhook subscriptions of a cross-chain order (URL, secret, owner key) and how far delivery has got (`delivered_seq`, failures).',
  webhook_deliveries: "One row per status event delivered to a webhook: the receiver's status code and the attempts it took.",
  schema_migrations: "TypeORM's record of the migrations applied (the only table TypeORM itself writes).",
};

export interface Column {
  name: string;
  type: string;
  nullable: boolean;
  default: string | null;
}

export interface TableDoc {
  name: string;
  purpose: string;
  columns: Column[];
  primaryKey: string[];
  indexes: string[];
  writers: string[];
  readers: string[];
  /** apps that reach the table through a class of libs/persistence that names it: "apps/gateway (ApiKeysRepository)" */
  through: string[];
}

/** Tables, columns, primary keys and non-primary indexes of a migrated database's public schema. */
export async function readSchema(c: Client): Promise<Map<string, Omit<TableDoc, 'purpose' | 'writers' | 'readers' | 'through'>>> {
  const tables = (
    await c.query<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    )
  ).rows.map((r) => r.t);
  const out = new Map<string, Omit<TableDoc, 'purpose' | 'writers' | 'readers' | 'through'>>();
  for (const t of tables) {
    const columns = (
      await c.query<{ name: string; type: string; nullable: string; def: string | null }>(
        `SELECT column_name AS name, format_type(a.atttypid, a.atttypmod) AS type, is_nullable AS nullable, column_default AS def
         FROM information_schema.columns col JOIN pg_attribute a ON a.attrelid = ('public.' || quote_ident($1))::regclass AND a.attname = col.column_name
         WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
        [t],
      )
    ).rows.map((r) => ({ name: r.name, type: r.type, nullable: r.nullable === 'YES', default: r.def }));
    const primaryKey = (
      await c.query<{ col: string }>(
        `SELECT a.attname AS col FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
         WHERE i.indrelid = ('public.' || quote_ident($1))::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`,
        [t],
      )
    ).rows.map((r) => r.col);
    const indexes = (
      await c.query<{ def: string }>(
        `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
         WHERE i.indrelid = ('public.' || quote_ident($1))::regclass AND NOT i.indisprimary ORDER BY ic.relname`,
        [t],
      )
    ).rows.map((r) =>
      r.def
        .replace(/ ON public\.\S+ USING /, ' USING ')
        .replace(/^CREATE (UNIQUE )?INDEX /, (_m, u: string | undefined) => (u ? 'unique ' : '')),
    );
    out.set(t, { name: t, columns, primaryKey, indexes });
  }
  return out;
}

/** The project (apps/<name> or libs/<name>) of a source file. */
function projectOf(file: string): string {
  const parts = relative(REPO_ROOT, file).split(sep);
  return `${parts[0]}/${parts[1]}`;
}

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'generated' || entry === 'migrations' || entry === 'testing' || entry === 'test') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (entry.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(entry)) out.push(path);
  }
  return out;
}

/** Source text without comments, so prose ("the row lock taken by the UPDATE orders ...") names no table. Keeps `//` after a colon (URLs). */
export function withoutComments(text: string): string {
  const lineComment = (line: string): number => {
    let i = line.indexOf('//');
    while (i > 0 && `:'"\``.includes(line[i - 1]!)) i = line.indexOf('//', i + 2);
    return i;
  };
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => {
      const i = lineComment(line);
      return i < 0 ? line : line.slice(0, i);
    })
    .join('\n');
}

/**
 * Which projects write and read each table: production sources (no tests, test helpers or
 * migrations) whose SQL names it after INSERT INTO / UPDATE / DELETE FROM / COPY (writers) or
 * FROM / JOIN (readers); a file using a table's TypeORM entity class counts as both. Apps that
 * import a libs/persistence repository naming a table are listed apart (`through`).
 */
export function usage(tables: readonly string[]): Map<string, { writers: Set<string>; readers: Set<string>; through: Set<string> }> {
  const out = new Map(tables.map((t) => [t, { writers: new Set<string>(), readers: new Set<string>(), through: new Set<string>() }]));
  const apps = sources(join(REPO_ROOT, 'apps'));
  const files = [...apps, ...sources(join(REPO_ROOT, 'libs'))];
  const texts = new Map(files.map((f) => [f, withoutComments(readFileSync(f, 'utf8'))]));
  // TypeORM entity classes by table: a file that uses the class uses the table.
  const entities = new Map<string, string>();
  for (const text of texts.values()) {
    for (const t of tables) {
      const m = new RegExp(`@Entity\\(\\s*(?:\\{\\s*name:\\s*)?['"]${t}['"][^)]*\\)\\s*export class (\\w+)`).exec(text);
      if (m) entities.set(t, m[1]!);
    }
  }
  for (const file of files) {
    const text = texts.get(file)!;
    const project = projectOf(file);
    for (const t of tables) {
      const entity = entities.get(t);
      const writes = new RegExp(`\\b(?:INSERT INTO|UPDATE|DELETE FROM|COPY)\\s+${t}\\b`).test(text);
      const reads = new RegExp(`\\b(?:FROM|JOIN)\\s+${t}\\b`).test(text);
      const mapped = entity !== undefined && new RegExp(`\\b${entity}\\b`).test(text);
      if (!writes && !reads && !mapped) continue;
      const u = out.get(t)!;
      if (writes || mapped) u.writers.add(project);
      if (reads || mapped) u.readers.add(project);
      // A repository of libs/persistence naming the table: the apps importing it use the table through it.
      if (project !== 'libs/persistence') continue;
      for (const [, cls] of text.matchAll(/export class (\w+Repository)\b/g)) {
        const imported = new RegExp(`import[^;]*\\b${cls}\\b[^;]*from '@tokensvc/persistence'`);
        for (const app of apps) if (imported.test(texts.get(app)!)) u.through.add(`${projectOf(app)} (${cls})`);
      }
    }
  }
  return out;
}

export async function tableDocs(c: Client): Promise<TableDoc[]> {
  const schema = await readSchema(c);
  const names = [...schema.keys()];
  const missing = names.filter((t) => TABLE_PURPOSES[t] === undefined);
  if (missing.length > 0)
    throw new Error(`no purpose written for ${missing.join(', ')}: add a sentence to TABLE_PURPOSES in tools/persistence/tables.ts`);
  const gone = Object.keys(TABLE_PURPOSES).filter((t) => !schema.has(t));
  if (gone.length > 0) throw new Error(`TABLE_PURPOSES names tables the migrations do not create: ${gone.join(', ')}`);
  const used = usage(names);
  return names.map((t) => ({
    ...schema.get(t)!,
    purpose: TABLE_PURPOSES[t]!,
    writers: [...used.get(t)!.writers].sort(),
    readers: [...used.get(t)!.readers].sort(),
    through: [...used.get(t)!.through].sort(),
  }));
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');

export function tablesMarkdown(docs: readonly TableDoc[]): string {
  const lines = [
    '# Tables',
    '',
    '<!-- Generated by `npm run db:doc` (tools/persistence/tables.ts) from a database migrated from scratch and from the',
    '     SQL in the sources; tools/persistence/tables-doc.int-spec.ts fails when this file is out of date. -->',
    '',
    'Every table of the schema: what it holds, which projects write and read it (production sources whose SQL names',
    'it; TypeORM entities count for their project), its columns and its indexes. Migrations live in',
    '`libs/persistence/src/migrations`; TypeORM runs them and maps `networks` and `platforms`, every other access is',
    'SQL through `pg` or `DataSource.query`.',
    '',
    '| table | written by | read by | used through libs/persistence by |',
    '|---|---|---|---|',
    ...docs.map(
      (d) =>
        `| [\`${d.name}\`](#${d.name}) | ${d.writers.join(', ') || '—'} | ${d.readers.join(', ') || '—'} | ${d.through.join(', ') || '—'} |`,
    ),
    '',
  ];
  for (const d of docs) {
    const through = d.through.length > 0 ? ` Used through libs/persistence by: ${d.through.join(', ')}.` : '';
    lines.push(
      `## ${d.name}`,
      '',
      d.purpose,
      '',
      `Written by: ${d.writers.join(', ') || '—'}. Read by: ${d.readers.join(', ') || '—'}.${through}`,
      '',
    );
    lines.push('| column | type | null | default |', '|---|---|---|---|');
    for (const c of d.columns)
      lines.push(
        `| ${d.primaryKey.includes(c.name) ? `**${c.name}**` : c.name} | ${cell(c.type)} | ${c.nullable ? 'yes' : 'no'} | ${c.default === null ? '' : `\`${cell(c.default)}\``} |`,
      );
    lines.push('');
    if (d.primaryKey.length > 0) lines.push(`Primary key: (${d.primaryKey.join(', ')}).`);
    if (d.indexes.length > 0) lines.push('Indexes:', '', ...d.indexes.map((i) => `- \`${cell(i)}\``));
    lines.push('');
  }
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
