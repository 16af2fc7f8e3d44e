/**
 * A Postgres array literal for values made only of [0-9a-zA-Zx-] characters (hex strings,
 * integers, decimal amounts): no quoting needed, and much cheaper to build than pg's generic
 * array serialisation on 100k-element batches. Anything else is rejected, never mis-encoded.
 */
const SAFE = /^-?[0-9a-zA-Z]+$/;

export function pgArray(values: ReadonlyArray<string | number | bigint>): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // Numbers and bigints always print safely; only strings need the check.
    if (typeof v === 'string' && !SAFE.test(v)) throw new Error(`value "${v.slice(0, 40)}" cannot go into a bare array literal`);
    parts[i] = typeof v === 'string' ? v : Number.isFinite(v) || typeof v === 'bigint' ? String(v) : bad(v);
  }
  return `{${parts.join(',')}}`;
}

function bad(v: number): never {
  throw new Error(`value ${v} cannot go into a bare array literal`);
}
