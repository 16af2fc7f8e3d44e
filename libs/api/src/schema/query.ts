import { ParamError, shown, type Param, type Presence } from './param';

/**
 * A rule over several parameters: `given` holds the names present in the request, `values` the
 * parsed values (defaults applied). Returns the problem, or undefined.
 */
export type QueryRule = (given: ReadonlySet<string>, values: Readonly<Record<string, unknown>>) => string | undefined;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the value type varies per parameter
export type ParamMap = Record<string, Param<any, Presence>>;

export interface QuerySchema<P extends ParamMap = ParamMap> {
  readonly params: P;
  readonly rules: readonly QueryRule[];
  /** unknown parameters are dropped instead of refused (probes, whose monitors add cache-busters like `?_=<time>`) */
  readonly ignoreUnknown?: boolean;
}

type ValueOf<X> = X extends Param<infer T, Presence> ? T : never;
type PresenceOf<X> = X extends Param<unknown, infer P> ? P : never;
type OptionalNames<P extends ParamMap> = { [K in keyof P]: PresenceOf<P[K]> extends 'optional' ? K : never }[keyof P];
type Simplify<T> = { [K in keyof T]: T[K] } & unknown;

/** The typed result of `parseQuery`: required and defaulted parameters are always present. */
export type ParsedQuery<S extends QuerySchema> = Simplify<
  { [K in Exclude<keyof S['params'], OptionalNames<S['params']>>]: ValueOf<S['params'][K]> } & {
    [K in OptionalNames<S['params']>]?: ValueOf<S['params'][K]>;
  }
>;

export function query<P extends ParamMap>(params: P, ...rules: QueryRule[]): QuerySchema<P> {
  return { params, rules };
}

/** The same schema, dropping parameters it does not declare instead of refusing them. */
export function ignoringUnknown<S extends QuerySchema>(schema: S): S {
  return { ...schema, ignoreUnknown: true };
}

/** `when` may only be given together with `needs` (e.g. `page` needs `limit`). */
export function requiresWith(when: string, needs: string): QueryRule {
  return (given) => (given.has(when) && !given.has(needs) ? `${needs} must also be given when ${when} is given` : undefined);
}

/** `low` may not exceed `high` when both are given (numbers). */
export function ordered(low: string, high: string): QueryRule {
  return (_given, v) => {
    const a = v[low];
    const b = v[high];
    return typeof a === 'number' && typeof b === 'number' && a > b ? `${low} (${a}) must not exceed ${high} (${b})` : undefined;
  };
}

/** A request the schema refuses; the message names the parameter and what it accepts. */
export class QueryError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
  }
}

const MAX_PARAMS = 64;
const MAX_RAW_LENGTH = 16_384;

/** Raw query values as a parser gives them: a string, repeated strings, or (from a JSON body) primitives. */
function occurrences(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
    return value.map(String);
  return undefined;
}

/**
 * Validates a raw query (or flat JSON body) against a schema. Returns typed, normalised values
 * with defaults applied, or throws QueryError listing every problem at once.
 */
export function parseQuery<S extends QuerySchema>(schema: S, raw: Readonly<Record<string, unknown>>): ParsedQuery<S> {
  const names = Object.keys(raw);
  const params = schema.params;
  const accepted = Object.keys(params);
  if (names.length > MAX_PARAMS) throw new QueryError([`too many query parameters (${names.length}); at most ${MAX_PARAMS}`]);
  const unknown = names.filter((n) => !Object.hasOwn(params, n));
  if (unknown.length > 0 && !schema.ignoreUnknown) {
    const list = unknown.slice(0, 5).map(shown).join(', ') + (unknown.length > 5 ? ` and ${unknown.length - 5} more` : '');
    throw new QueryError([
      `unknown query parameter${unknown.length > 1 ? 's' : ''} ${list}; ${accepted.length ? `accepted: ${accepted.join(', ')}` : 'this endpoint takes no parameters'}`,
    ]);
  }
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  const given = new Set<string>();
  for (const name of accepted) {
    const param = params[name]!;
    const values = occurrences(raw[name]);
    if (raw[name] !== undefined && values === undefined) {
      problems.push(`invalid ${name}: must be ${param.accepts}`);
      continue;
    }
    if (values === undefined || values.length === 0) {
      if (param.presence === 'required') problems.push(`missing required query parameter ${name}: ${param.accepts}`);
      else if (param.presence === 'default') out[name] = param.defaultValue;
      continue;
    }
    given.add(name);
    if (param.ignored) continue;
    const joined = values.join(',');
    if (joined.length > MAX_RAW_LENGTH) {
      problems.push(`invalid ${name}: longer than ${MAX_RAW_LENGTH} characters`);
      continue;
    }
    try {
      out[name] = param.parse(values, name);
    } catch (e) {
      if (!(e instanceof ParamError)) throw e;
      problems.push(`invalid ${name} ${shown(joined)}: ${e.reason}`);
    }
  }
  // Cross-parameter rules only make sense over values that parsed.
  if (problems.length === 0) problems.push(...schema.rules.map((rule) => rule(given, out)).filter((p): p is string => p !== undefined));
  if (problems.length > 0) throw new QueryError(problems);
  return out as ParsedQuery<S>;
}
