import './style.css';
import { request, session } from './api';
import { errorBox, h, render } from './dom';
import { indexingView } from './views/indexing';
import { keysView } from './views/keys';
import { orderView } from './views/order';
import { tokenView } from './views/token';
import { tokensView } from './views/tokens';
import { usageView } from './views/usage';

/** The console: a hash-routed page over this origin's API (the admin listener serves the key pages only). */
const isAdmin = document.body.dataset['mode'] === 'admin';
const nav = h('nav', { 'aria-label': 'Console' });
const main = h('main', { id: 'main', tabindex: -1 });
document.body.replaceChildren(
  h('header', {}, h('p', { class: 'brand' }, isAdmin ? 'tokensvc admin console' : 'tokensvc console'), nav),
  main,
);

const PAGES = [
  ['#/usage', 'Usage'],
  ['#/indexing', 'Indexing'],
  ['#/tokens', 'Tokens'],
  ['#/order', 'Order'],
] as const;

let current: AbortController | undefined;

function renderNav(route: string): void {
  if (isAdmin || !session.key()) return render(nav);
  render(
    nav,
    h(
      'ul',
      {},
      ...PAGES.map(([href, label]) => h('li', {}, h('a', { href, 'aria-current': route === href ? 'page' : undefined }, label))),
      h('li', {}, h('button', { type: 'button', id: 'sign-out', onclick: signOut }, 'Sign out')),
    ),
  );
}

function signOut(): void {
  session.setKey(null);
  location.hash = '#/';
  void route();
}

function signIn(root: HTMLElement): void {
  const message = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    {
      id: 'sign-in',
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const key = String(new FormData(form).get('key') ?? '').trim();
        try {
          await request('/v3/portal/usage', key);
          session.setKey(key);
          location.hash = '#/usage';
          void route();
        } catch (err) {
          render(message, errorBox(`Sign-in failed: ${(err as Error).message}`));
        }
      },
    },
    h('label', { for: 'key' }, 'API key'),
    h('input', { id: 'key', name: 'key', type: 'password', required: true, autocomplete: 'off' }),
    h('button', { type: 'submit' }, 'Sign in'),
  );
  render(
    root,
    h('h1', {}, 'Sign in'),
    h('p', {}, 'Sign in with an API key to see its usage, browse tokens and follow orders. The key stays in this tab.'),
    form,
    message,
  );
}

async function route(): Promise<void> {
  current?.abort();
  current = new AbortController();
  const [path, query = ''] = location.hash.split('?') as [string, string?];
  const params = new URLSearchParams(query);
  renderNav(path);
  try {
    if (isAdmin) return await keysView(main);
    if (!session.key()) return signIn(main);
    switch (path) {
      case '#/indexing':
        return await indexingView(main, current.signal);
      case '#/tokens':
        return await tokensView(main, params);
      case '#/token':
        return await tokenView(main, params, current.signal);
      case '#/order':
        return orderView(main, params, current.signal);
      default:
        return await usageView(main);
    }
  } catch (e) {
    render(main, h('h1', {}, 'Error'), errorBox((e as Error).message));
  } finally {
    document.title = `${main.querySelector('h1')?.textContent ?? 'Console'} · tokensvc`;
  }
}

window.addEventListener('hashchange', () => void route());
void route();
