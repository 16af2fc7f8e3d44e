/**
 * Shared pieces of the deploy check: the Problem type, YAML parsing that reports instead of
 * throwing, and one Ajv instance with every schema under ./schemas.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { parseAllDocuments, visit } from 'yaml';

export interface SourceFile {
  /** Path as shown in messages (relative to the repo root). */
  readonly path: string;
  readonly text: string;
}

export interface Problem {
  readonly file: string;
  /** The object or field concerned, e.g. "Deployment/gateway" or "services.quote". */
  readonly where: string;
  readonly message: string;
}

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function problem(file: string, where: string, message: string): Problem {
  return { file, where, message };
}

export interface ParsedDoc {
  readonly index: number;
  readonly value: unknown;
  readonly hasAlias: boolean;
}

/** Every YAML document of a file (multi-document `---` files included); syntax errors become problems. */
export function parseYaml(file: SourceFile, problems: Problem[], opts: { merge?: boolean } = {}): ParsedDoc[] {
  const out: ParsedDoc[] = [];
  parseAllDocuments(file.text, { merge: opts.merge ?? false }).forEach((doc, index) => {
    if (!('errors' in doc)) return; // EmptyStream: nothing to check
    for (const e of doc.errors) problems.push(problem(file.path, `document ${index + 1}`, `YAML: ${e.message.split('\n')[0]}`));
    if (doc.errors.length > 0 || doc.contents === null) return;
    let hasAlias = false;
    visit(doc, { Alias: () => void (hasAlias = true) });
    out.push({ index, value: doc.toJS({ maxAliasCount: 1000 }), hasAlias });
  });
  return out;
}

const SCHEMA_DIR = join(__dirname, 'schemas');

let ajv: Ajv | undefined;
function schemas(): Ajv {
  if (ajv) return ajv;
  // allErrors: report every problem in one run. allowUnionTypes: IntOrString fields ("port: http" or 3000).
  ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
  for (const f of readdirSync(SCHEMA_DIR).filter((n) => n.endsWith('.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMA_DIR, f), 'utf8')) as Json);
  }
  return ajv;
}

export function validator(schemaId: string): ValidateFunction {
  const fn = schemas().getSchema(schemaId);
  if (!fn) throw new Error(`no schema ${schemaId} in ${SCHEMA_DIR}`);
  return fn;
}

/** Ajv errors as readable lines; the noise a failed oneOf/if adds on top of the real error is dropped. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  const lines = new Set<string>();
  for (const e of errors ?? []) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'allOf') continue;
    const at = e.instancePath === '' ? '(root)' : e.instancePath.slice(1).replace(/\//g, '.');
    const p = e.params as Record<string, unknown>;
    let detail = '';
    if (e.keyword === 'additionalProperties') detail = `: unknown field "${String(p['additionalProperty'])}"`;
    else if (e.keyword === 'enum') detail = `: ${JSON.stringify(p['allowedValues'])}`;
    else if (e.keyword === 'const') detail = ` ${JSON.stringify(p['allowedValue'])}`;
    lines.add(`${at} ${e.message ?? e.keyword}${detail}`);
  }
  return [...lines];
}
