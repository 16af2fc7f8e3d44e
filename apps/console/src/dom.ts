/** A tiny element builder: h('p', { class: 'x' }, 'text', child). Text is always set as text, never as HTML. */
type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;
export type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces an element's content. */
export function render(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A table with a caption and header row; cells are text or nodes. */
export function table(caption: string, head: string[], rows: Child[][], attrs: Attrs = {}): HTMLTableElement {
  return h(
    'table',
    attrs,
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...head.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c))))),
  );
}

export function errorBox(message: string): HTMLElement {
  return h('p', { class: 'error', role: 'alert' }, message);
}

export const fmt = {
  int: (n: number | null | undefined): string => (n === null || n === undefined ? '—' : Math.round(n).toLocaleString('en-US')),
  usd: (n: number | null | undefined): string =>
    n === null || n === undefined || !Number.isFinite(n) ? '—' : `$${n.toLocaleString('en-US', { maximumFractionDigits: n < 1 ? 6 : 2 })}`,
  seconds: (s: number | null | undefined): string => {
    if (s === null || s === undefined) return 'unknown';
    if (s < 60) return `${Math.round(s)} s`;
    if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
    return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  },
};
