/** The registry file's text (canonical JSON) and what differs between two registries. */
import type { ShippedRegistry } from '@tokensvc/chain';

/** Sorts object keys and the registry's lists so equal content is equal text. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonical);
    const key = (v: unknown): string => {
      const o = v as Record<string, unknown> | null;
      if (o === null || typeof o !== 'object') return JSON.stringify(v);
      return [o['slug'], o['symbol'], o['label'], o['address']].filter((x) => typeof x === 'string').join('|') || JSON.stringify(v);
    };
    return items.every((v) => typeof v === 'string') ? items : items.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** The file's text: canonical JSON, two-space indented, one trailing newline. */
export function registryText(registry: ShippedRegistry): string {
  return `${JSON.stringify(canonical(registry), null, 2)}\n`;
}

/** Every leaf of a JSON value by its path, to name what differs between two registries. */
function leaves(value: unknown, path: string, out: Map<string, string>): Map<string, string> {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) leaves(v, Array.isArray(value) ? `${path}[${k}]` : path === '' ? k : `${path}.${k}`, out);
  } else out.set(path, JSON.stringify(value));
  return out;
}

/** The entries that differ (path: committed -> derived), empty when the registries are equal. */
export function registryDiff(committed: unknown, derived: unknown): string[] {
  const a = leaves(committed, '', new Map());
  const b = leaves(derived, '', new Map());
  const out: string[] = [];
  for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    if (a.get(path) !== b.get(path)) out.push(`${path}: ${a.get(path) ?? '(absent)'} -> ${b.get(path) ?? '(absent)'}`);
  }
  return out;
}
