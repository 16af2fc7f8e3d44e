import {
  InvalidAmountError,
  isAddress,
  isNativeAddress,
  NETWORKS,
  parseAmount,
  parsePositiveAmount,
  parseTokenKey,
  type Network,
  type TokenKey,
  tokenKey,
} from '@tokensvc/domain';
import { Type } from '@sinclair/typebox';
import { checksumProblem } from './eip55';
import { dateTime, stringEnum } from './types';
import { list, ParamError, single, type ListStyle, type Param } from './param';

// Every pattern here runs on raw client input, so each is linear (no two quantifiers that can
// trade characters; lint's regexp/no-super-linear-* rules hold them to it), and each value's
// length is capped before any pattern or conversion runs on it.
const INT_RE = /^[+-]?\d{1,16}$/;
const NUM_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$/;
const HEX_RE = /^0x[0-9a-fA-F]*$/;
// Control characters (NUL above all) never reach a service: Postgres text refuses NUL.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_RE = /[\u0000-\u001f\u007f]/;
const ISO_RE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Longest raw values: sign, 16 digits; a decimal with exponent; 2^256-1; an ISO date-time with micros and offset. */
const MAX_INT_LENGTH = 17;
const MAX_NUMBER_LENGTH = 64;
const MAX_DATE_LENGTH = 32;
const ADDRESS_LENGTH = 42;
const MAX_TOKEN_KEY_LENGTH = Math.max(...NETWORKS.map((n) => n.length)) + 1 + ADDRESS_LENGTH;

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

function inRange(n: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || n >= min) && (max === undefined || n <= max);
}

interface StringOpts {
  maxLength?: number;
  /** a pattern the value must match, with `hint` saying in words what it is */
  pattern?: RegExp;
  hint?: string;
}

/** Builders of query parameters, one per kind of value the spec uses. */
export const q = {
  string({ maxLength = 256, pattern, hint }: StringOpts = {}): Param<string> {
    const accepts = hint ?? `a non-empty string of at most ${maxLength} characters`;
    return single(
      (raw) => {
        if (raw.length === 0 || raw.length > maxLength || CONTROL_RE.test(raw) || (pattern && !pattern.test(raw)))
          throw new ParamError(`must be ${accepts}`);
        return raw;
      },
      accepts,
      Type.String({ minLength: 1, maxLength, ...(pattern ? { pattern: pattern.source } : {}) }),
    );
  },

  int({ min, max }: { min?: number; max?: number } = {}): Param<number> {
    const accepts = `an integer${range(min, max)}`;
    return single(
      (raw) => {
        if (raw.length > MAX_INT_LENGTH || !INT_RE.test(raw)) throw new ParamError(`must be ${accepts}`);
        const n = Number(raw);
        if (!Number.isSafeInteger(n) || !inRange(n, min, max)) throw new ParamError(`must be ${accepts}`);
        return n;
      },
      accepts,
      Type.Integer({ ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) }),
    );
  },

  number({ min, max }: { min?: number; max?: number } = {}): Param<number> {
    const accepts = `a number${range(min, max)}`;
    return single(
      (raw) => {
        if (raw.length > MAX_NUMBER_LENGTH || !NUM_RE.test(raw)) throw new ParamError(`must be ${accepts}`);
        const n = Number(raw);
        if (!Number.isFinite(n) || !inRange(n, min, max)) throw new ParamError(`must be ${accepts}`);
        return n;
      },
      accepts,
      Type.Number({ ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) }),
    );
  },

  boolean(): Param<boolean> {
    return single(
      (raw) => {
        if (raw === 'true') return true;
        if (raw === 'false') return false;
        throw new ParamError('must be true or false');
      },
      'true or false',
      Type.Boolean(),
    );
  },

  oneOf<const V extends readonly string[]>(values: V): Param<V[number]> {
    const accepts = `one of ${values.join(', ')}`;
    return single(
      (raw) => {
        if (!(values as readonly string[]).includes(raw)) throw new ParamError(`must be ${accepts}`);
        return raw as V[number];
      },
      accepts,
      stringEnum(values),
    );
  },

  network(): Param<Network> {
    return q.oneOf(NETWORKS);
  },

  /** `<network>:<address>` in any case, normalised to lowercase */
  tokenKey({ allowNative = true }: { allowNative?: boolean } = {}): Param<TokenKey> {
    const accepts = `a token key <network>:<0x address>${allowNative ? '' : ' other than the native token (zero address)'}, network one of ${NETWORKS.join(', ')}`;
    return single(
      (raw) => {
        let id;
        try {
          if (raw.length > MAX_TOKEN_KEY_LENGTH) throw new Error('too long');
          id = parseTokenKey(raw);
        } catch {
          throw new ParamError(`must be ${accepts}`);
        }
        // parseTokenKey lowercases; the checksum is judged on the address as sent.
        const problem = checksumProblem(raw.slice(raw.indexOf(':') + 1));
        if (problem !== undefined) throw new ParamError(`address ${problem}`);
        if (!allowNative && isNativeAddress(id.address))
          throw new ParamError('is the native token, which needs no approval; give an ERC-20 token key');
        return tokenKey(id.network, id.address);
      },
      accepts,
      Type.String({ pattern: '^[a-z0-9]+:0x[0-9a-fA-F]{40}$', example: 'ethereum:0x0000000000000000000000000000000000000000' }),
    );
  },

  address(): Param<string> {
    const accepts = 'an address: 0x followed by 40 hex characters';
    return single(
      (raw) => {
        if (raw.length !== ADDRESS_LENGTH || !isAddress(raw)) throw new ParamError(`must be ${accepts}`);
        const problem = checksumProblem(raw);
        if (problem !== undefined) throw new ParamError(problem);
        return raw.toLowerCase();
      },
      accepts,
      Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }),
    );
  },

  /** a uint256 in base units as a decimal string */
  uint256({ positive = false }: { positive?: boolean } = {}): Param<bigint> {
    const accepts = `a ${positive ? 'positive ' : ''}whole number in base units (decimal digits, at most 2^256-1)`;
    return single(
      (raw) => {
        // the domain's rules (the quote service applies the same ones to what it receives)
        try {
          return positive ? parsePositiveAmount(raw) : parseAmount(raw);
        } catch (e) {
          if (e instanceof InvalidAmountError) throw new ParamError(`must be ${accepts}`);
          throw e;
        }
      },
      accepts,
      Type.String({ pattern: '^[0-9]{1,78}$' }),
    );
  },

  /** 0x-prefixed hex of one of the given byte lengths, lowercased */
  hex(bytes: readonly number[], what: string): Param<string> {
    const accepts = `${what}: 0x followed by ${bytes.map((b) => b * 2).join(' or ')} hex characters`;
    return single(
      (raw) => {
        if (!bytes.includes((raw.length - 2) / 2) || !HEX_RE.test(raw)) throw new ParamError(`must be ${accepts}`);
        return raw.toLowerCase();
      },
      accepts,
      Type.String({ pattern: `^0x([0-9a-fA-F]{${bytes.map((b) => b * 2).join('}|[0-9a-fA-F]{')}})$` }),
    );
  },

  /** an ISO 8601 date or date-time (UTC unless an offset is given) */
  dateTime(): Param<Date> {
    const accepts = 'an ISO 8601 date-time, e.g. 2030-01-31T00:00:00Z';
    return single(
      (raw) => {
        const t = raw.length <= MAX_DATE_LENGTH && ISO_RE.test(raw) ? Date.parse(raw) : NaN;
        if (!Number.isFinite(t)) throw new ParamError(`must be ${accepts}`);
        return new Date(t);
      },
      accepts,
      dateTime(),
    );
  },

  list<T>(item: Param<T>, style: ListStyle, maxItems: number): Param<T[]> {
    return list(item, style, maxItems);
  },
};
