/**
 * A token's state columns, as `tokens`, `price_points` and `candles` hold them: the one list the
 * SQL of their writers and readers is built from (the indexer's writes and rollback, token-data's
 * reads and its as-of-finalized tables), so a new state column is added here and nowhere else.
 */
import type { TokenStateColumns } from './token-row';

export type TokenStateColumn = keyof TokenStateColumns;

interface StateColumnSpec {
  /** how a writer passes it through unnest (numerics as text, cast on the way in) */
  param: 'float8' | 'text';
  /** the cast from the parameter to the column's type ('' when none) */
  cast: '' | '::numeric' | '::numeric[]';
  /** how a reader selects it (numerics as text, so no precision is lost in JavaScript) */
  read: '' | '::text' | '::text[]';
  /** the value before a token's first state */
  zero: string;
}

const FLOAT: StateColumnSpec = { param: 'float8', cast: '', read: '', zero: '0' };
const NUMERIC: StateColumnSpec = { param: 'text', cast: '::numeric', read: '::text', zero: '0' };

/** In the order the writers pass them. */
export const TOKEN_STATE_COLUMNS: Readonly<Record<TokenStateColumn, StateColumnSpec>> = {
  price: FLOAT,
  liquidity: FLOAT,
  total_supply: NUMERIC,
  circulating_supply: NUMERIC,
  total_borrow: NUMERIC,
  reserves: { param: 'text', cast: '::numeric[]', read: '::text[]', zero: `'{}'::numeric[]` },
  price_per_share: { param: 'text', cast: '', read: '', zero: `'0'` },
  apy: FLOAT,
  base_apy: FLOAT,
  reward_apy: FLOAT,
  borrow_apy: FLOAT,
  base_borrow_apy: FLOAT,
};

export const TOKEN_STATE_COLUMN_NAMES = Object.keys(TOKEN_STATE_COLUMNS) as TokenStateColumn[];

const prefixed = (alias: string | undefined, column: string): string => (alias ? `${alias}.${column}` : column);

/** `alias.price, alias.liquidity, alias.total_supply::text AS total_supply, ...` (`omit`: columns left out, e.g. candles have no price). */
export function stateColumnsSelect(alias?: string, omit: readonly TokenStateColumn[] = []): string {
  return TOKEN_STATE_COLUMN_NAMES.filter((c) => !omit.includes(c))
    .map((c) => {
      const { read } = TOKEN_STATE_COLUMNS[c];
      return read === '' ? prefixed(alias, c) : `${prefixed(alias, c)}${read} AS ${c}`;
    })
    .join(', ');
}

/** The unnest parameter types of the state columns, from `$first` on (`$4::float8[], $5::float8[], $6::text[], ...`). */
export function stateColumnsParams(first: number): string {
  return TOKEN_STATE_COLUMN_NAMES.map((c, i) => `$${first + i}::${TOKEN_STATE_COLUMNS[c].param}[]`).join(', ');
}

/** The state columns read from unnest's column aliases `alias.<column>`, cast to their types, in order. */
export function stateColumnsFromParams(alias: string): string {
  return TOKEN_STATE_COLUMN_NAMES.map((c) => `${alias}.${c}${TOKEN_STATE_COLUMNS[c].cast}`).join(', ');
}
