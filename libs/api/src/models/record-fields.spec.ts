import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEntry, Token, TokenMetrics } from '@tokensvc/messages';
import {
  HISTORY_ENTRY_FIELDS,
  HISTORY_ENTRY_FIELD_NAMES,
  PAID_METRIC_FIELDS,
  PUBLIC_METRIC_FIELDS,
  TOKEN_FIELDS,
  TOKEN_FIELD_NAMES,
  type FieldKind,
} from './record-fields';

/** The proto type that carries each field kind on the wire. */
const PROTO_TYPE: Record<FieldKind, string> = {
  string: 'string',
  dateTime: 'string',
  int32: 'int32',
  double: 'double',
  bool: 'bool',
  strings: 'repeated string',
  stringMap: 'map<string, string>',
  metrics: 'TokenMetrics',
  blockOrNull: 'optional int64',
};

const PROTO = readFileSync(join(__dirname, '../../../../proto/tokensvc/v1/tokens.proto'), 'utf8');
const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** `[camelCaseName, type]` of each field of a message of tokens.proto, in field-number order. */
function protoFields(message: string): [string, string][] {
  const body = new RegExp(`^message ${message} \\{\\n([^}]*)^\\}`, 'm').exec(PROTO)?.[1];
  if (body === undefined) throw new Error(`no message ${message} in tokens.proto`);
  const fields = [...body.matchAll(/^ {2}([^/\n][^=\n]*?) ([a-z0-9_]+) = (\d+);$/gm)].map((m) => ({
    type: m[1]!,
    name: camel(m[2]!),
    no: Number(m[3]),
  }));
  return fields.sort((a, b) => a.no - b.no).map((f) => [f.name, f.type]);
}

// the names are fields of the generated messages (checked by the compiler)
const _tokenNames: readonly (keyof Token)[] = TOKEN_FIELD_NAMES;
const _historyNames: readonly (keyof HistoryEntry)[] = HISTORY_ENTRY_FIELD_NAMES;

describe('TOKEN_FIELDS, the public Token record, against the wire contract', () => {
  it('names the fields of the proto message Token in its order, each of the proto type its kind says', () => {
    expect(TOKEN_FIELD_NAMES.map((f) => [f, PROTO_TYPE[TOKEN_FIELDS[f]]])).toEqual(protoFields('Token'));
  });

  it('names the fields of the generated message in its order', () => {
    expect(TOKEN_FIELD_NAMES).toEqual(Object.keys(Token.fromJSON({})));
  });

  it('lists the public then the paid-only metrics as the proto message TokenMetrics has them', () => {
    const metrics = protoFields('TokenMetrics');
    expect([...PUBLIC_METRIC_FIELDS, ...PAID_METRIC_FIELDS]).toEqual(metrics.map(([name]) => name));
    expect(metrics.map(([name, type]) => [name, type.startsWith('optional ')])).toEqual([
      ...PUBLIC_METRIC_FIELDS.map((f) => [f, false]),
      ...PAID_METRIC_FIELDS.map((f) => [f, true]),
    ]);
    expect(Object.keys(TokenMetrics.fromJSON({}))).toEqual([...PUBLIC_METRIC_FIELDS, ...PAID_METRIC_FIELDS]);
  });
});

describe('HISTORY_ENTRY_FIELDS, the public HistoryEntry record, against the wire contract', () => {
  it('names the fields of the proto message HistoryEntry in its order, each of the proto type its kind says, then its block label', () => {
    const fields = HISTORY_ENTRY_FIELD_NAMES.map((f) => [f, PROTO_TYPE[HISTORY_ENTRY_FIELDS[f]]]);
    expect([...fields, ['block', 'BlockLabel']]).toEqual(protoFields('HistoryEntry'));
    expect([...HISTORY_ENTRY_FIELD_NAMES, 'block']).toEqual(Object.keys(HistoryEntry.fromJSON({})));
  });
});
