/**
 * Bulk writes go through `unnest` of one array per column: one statement per table and batch,
 * whatever the row count, and no 65k-parameter limit. Amounts travel as decimal text.
 */
export type { SqlTx } from '../../model/sql-tx';

/** A numeric[] value as an array literal, e.g. {1,2} (cast with ::numeric[] in SQL). */
export function numericArrayLiteral(values: readonly bigint[]): string {
  return `{${values.join(',')}}`;
}

export function text(value: bigint | null): string | null {
  return value === null ? null : value.toString();
}

/** `key >= lo AND key < hi` selects every token key of a network (`<network>:...`). */
export function networkKeyRange(network: string): [string, string] {
  return [`${network}:`, `${network};`];
}

/** Column-wise arrays of rows, in the order of `columns`. */
export function columns<T>(rows: readonly T[], pick: ReadonlyArray<(row: T) => unknown>): unknown[][] {
  return pick.map((f) => rows.map(f));
}
