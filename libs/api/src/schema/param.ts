import { Type, type TSchema } from '@sinclair/typebox';

/** Whether a parameter may be absent, must be given, or falls back to a default. */
export type Presence = 'optional' | 'required' | 'default';

/** How a list parameter is written: `a,b`, `x=a&x=b`, or either. */
export type ListStyle = 'comma' | 'repeat' | 'both';

/** A bad value: `reason` completes "invalid <name> "<raw>": ...". */
export class ParamError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Parses one raw string into a typed value, or throws ParamError. */
export type ValueParser<T> = (raw: string) => T;

export interface ParamSpec<T> {
  readonly presence: Presence;
  readonly defaultValue?: T;
  readonly description: string;
  /** what is accepted, in words, for error messages and the docs ("an integer from 1 to 250") */
  readonly accepts: string;
  /** OpenAPI schema of the value (an array schema for list parameters) */
  readonly schema: TSchema;
  readonly list?: { style: ListStyle; maxItems: number };
  /** accepted for compatibility and dropped (the spec lists some parameters as ignored) */
  readonly ignored: boolean;
  readonly deprecated: boolean;
  /** all occurrences of the parameter in the query, in order (at least one) */
  parse(values: readonly string[], name: string): T;
}

/**
 * One query parameter. Builders return new instances, so shared bases (`tokenKeyParam()`) can be
 * specialised per endpoint without aliasing.
 */
export class Param<T, P extends Presence = 'optional'> implements ParamSpec<T> {
  /** phantom: the presence, for the parsed-query type */
  declare readonly __presence?: P;
  /** phantom: the value type */
  declare readonly __type?: T;

  constructor(private readonly spec: ParamSpec<T>) {}

  get presence(): Presence {
    return this.spec.presence;
  }
  get defaultValue(): T | undefined {
    return this.spec.defaultValue;
  }
  get description(): string {
    return this.spec.description;
  }
  get accepts(): string {
    return this.spec.accepts;
  }
  get schema(): TSchema {
    return this.spec.schema;
  }
  get list(): ParamSpec<T>['list'] {
    return this.spec.list;
  }
  get ignored(): boolean {
    return this.spec.ignored;
  }
  get deprecated(): boolean {
    return this.spec.deprecated;
  }

  parse(values: readonly string[], name: string): T {
    return this.spec.parse(values, name);
  }

  required(): Param<T, 'required'> {
    return new Param<T, 'required'>({ ...this.spec, presence: 'required' });
  }

  default(value: T, shown: unknown = value): Param<T, 'default'> {
    return new Param<T, 'default'>({
      ...this.spec,
      presence: 'default',
      defaultValue: value,
      schema: { ...this.spec.schema, default: shown },
    });
  }

  describe(description: string): Param<T, P> {
    return new Param<T, P>({ ...this.spec, description });
  }

  /** an extra check on the parsed value; `check` returns the reason when the value is refused */
  refine(check: (value: T) => string | undefined): Param<T, P> {
    const inner = this.spec.parse;
    return new Param<T, P>({
      ...this.spec,
      parse: (values, name) => {
        const v = inner(values, name);
        const reason = check(v);
        if (reason !== undefined) throw new ParamError(reason);
        return v;
      },
    });
  }

  ignore(): Param<undefined, 'optional'> {
    return new Param<undefined, 'optional'>({
      ...this.spec,
      presence: 'optional',
      ignored: true,
      defaultValue: undefined,
      parse: () => undefined,
      description: `${this.spec.description} (accepted and ignored)`,
    });
  }

  markDeprecated(): Param<T, P> {
    return new Param<T, P>({ ...this.spec, deprecated: true });
  }
}

/**
 * A single-valued parameter from a value parser. Whitespace rule, the same for every parameter:
 * a single value is taken exactly as sent, so one with leading or trailing whitespace is refused
 * (`limit=%2010`); only list elements are trimmed, the spaces belonging to the separator
 * (`networks=ethereum,%20base`, `networks=ethereum%20`).
 */
export function single<T>(parse: ValueParser<T>, accepts: string, schema: TSchema): Param<T> {
  return new Param<T>({
    presence: 'optional',
    description: '',
    accepts,
    schema,
    ignored: false,
    deprecated: false,
    parse: (values, name) => {
      if (values.length > 1) throw new ParamError(`${name} must be given once, got it ${values.length} times`);
      const raw = values[0]!;
      if (raw !== raw.trim()) throw new ParamError(`must be ${accepts}, without leading or trailing whitespace`);
      return parse(raw);
    },
  });
}

/**
 * A list parameter: each element is parsed by `item`'s parser; every element is kept, in order,
 * repeats included (lists whose elements pair with another list's, such as a multi-input order's
 * tokens and amounts, must not lose one). An endpoint that forbids repeats says so with a rule;
 * consumers with set semantics de-duplicate themselves.
 */
export function list<T>(item: Param<T>, style: ListStyle, maxItems: number): Param<T[]> {
  const how =
    style === 'comma' ? 'comma-separated' : style === 'repeat' ? 'repeat the parameter for several' : 'comma-separated or repeated';
  return new Param<T[]>({
    presence: 'optional',
    description: '',
    accepts: `a list (${how}, at most ${maxItems}) of ${item.accepts}`,
    schema: Type.Array(item.schema, { maxItems }),
    list: { style, maxItems },
    ignored: false,
    deprecated: false,
    parse: (values, name) => {
      if (style === 'comma' && values.length > 1) throw new ParamError(`${name} must be given once, as a comma-separated list`);
      const parts = style === 'repeat' ? values : values.flatMap((v) => v.split(','));
      if (parts.length > maxItems) throw new ParamError(`at most ${maxItems} values are accepted, got ${parts.length}`);
      const out: T[] = [];
      for (const part of parts) {
        let v: T;
        try {
          v = item.parse([part.trim()], name);
        } catch (e) {
          if (e instanceof ParamError) throw new ParamError(`element ${shown(part)} ${e.reason}`);
          throw e;
        }
        out.push(v);
      }
      return out;
    },
  });
}

/** A raw value as quoted in messages: JSON-escaped and cut short. */
export function shown(raw: string): string {
  return JSON.stringify(raw.length > 96 ? `${raw.slice(0, 96)}…` : raw);
}
