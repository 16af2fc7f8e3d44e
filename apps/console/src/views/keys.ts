import { request, session } from '../api';
import { errorBox, h, render, table } from '../dom';

interface KeyRecord {
  id: string;
  displayPrefix: string;
  tier: string;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

const admin = <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => request<T>(path, session.adminToken(), init);

/**
 * Key management (the admin API, same origin: this page is served only by the admin listener).
 * The admin token is asked for here and kept in this tab's sessionStorage only.
 */
export async function keysView(root: HTMLElement): Promise<void> {
  if (!session.adminToken()) return signIn(root);
  const issued = h('div', { 'aria-live': 'polite' });
  const list = h('div', {}, h('p', {}, 'Loading keys…'));
  const form = h(
    'form',
    { id: 'create-key', onsubmit: (e: Event) => void create(e) },
    h('label', { for: 'tier' }, 'Tier'),
    h(
      'select',
      { id: 'tier', name: 'tier' },
      h('option', { value: 'free' }, 'free'),
      h('option', { value: 'paid' }, 'paid'),
      h('option', { value: 'enterprise' }, 'enterprise'),
    ),
    h('label', { for: 'label' }, 'Label'),
    h('input', { id: 'label', name: 'label', required: true, maxlength: 200 }),
    h('button', { type: 'submit' }, 'Create key'),
  );
  const signOut = h(
    'button',
    { type: 'button', onclick: () => (session.setAdminToken(null), void keysView(root)) },
    'Forget the admin token',
  );
  render(root, h('h1', {}, 'API keys'), signOut, h('h2', {}, 'Create a key'), form, issued, h('h2', {}, 'Keys'), list);

  const load = async (): Promise<void> => {
    try {
      const { keys } = await admin<{ keys: KeyRecord[] }>('/admin/keys?includeRevoked=true');
      render(
        list,
        table(
          `${keys.length} keys (revoked ones included)`,
          ['Prefix', 'Label', 'Tier', 'Created', 'Last used', 'State', 'Action'],
          keys.map((k) => [
            h('code', {}, k.displayPrefix),
            k.label,
            k.tier,
            new Date(k.createdAt).toLocaleString(),
            k.lastUsedAt ? new Date(k.lastUsedAt).toLocaleString() : 'never',
            h('span', { 'data-key-state': k.displayPrefix }, k.revokedAt ? `revoked ${new Date(k.revokedAt).toLocaleString()}` : 'active'),
            k.revokedAt
              ? ''
              : h(
                  'button',
                  {
                    type: 'button',
                    'data-revoke': k.displayPrefix,
                    'aria-label': `Revoke ${k.label} (${k.displayPrefix})`,
                    onclick: () => void revoke(k),
                  },
                  'Revoke',
                ),
          ]),
          { id: 'keys-table' },
        ),
      );
    } catch (e) {
      render(list, errorBox(`Keys could not be listed: ${(e as Error).message}`));
      if ((e as { status?: number }).status === 401) session.setAdminToken(null);
    }
  };
  const create = async (e: Event): Promise<void> => {
    e.preventDefault();
    const data = new FormData(form);
    try {
      const r = await admin<{ key: string; record: KeyRecord }>('/admin/keys', {
        method: 'POST',
        body: { tier: data.get('tier'), label: String(data.get('label') ?? '').trim() },
      });
      render(
        issued,
        h(
          'p',
          { role: 'status' },
          `Key created (${r.record.tier}, ${r.record.label}). Copy it now, it is shown only once: `,
          h('code', { id: 'new-key' }, r.key),
        ),
      );
      form.reset();
      await load();
    } catch (err) {
      render(issued, errorBox(`The key was not created: ${(err as Error).message}`));
    }
  };
  const revoke = async (k: KeyRecord): Promise<void> => {
    if (
      !confirm(
        `Revoke ${k.label} (${k.displayPrefix})? Calls with it are refused at once on this gateway and within seconds on the others.`,
      )
    )
      return;
    try {
      await admin(`/admin/keys/${encodeURIComponent(k.id)}`, { method: 'DELETE' });
      render(issued, h('p', { role: 'status' }, `Key ${k.displayPrefix} revoked.`));
      await load();
    } catch (err) {
      render(issued, errorBox(`The key was not revoked: ${(err as Error).message}`));
    }
  };
  await load();
}

function signIn(root: HTMLElement): void {
  const form = h(
    'form',
    {
      id: 'admin-sign-in',
      onsubmit: (e: Event) => {
        e.preventDefault();
        session.setAdminToken(String(new FormData(form).get('token') ?? '').trim());
        void keysView(root);
      },
    },
    h('label', { for: 'token' }, 'Admin token (ADMIN_TOKEN)'),
    h('input', { id: 'token', name: 'token', type: 'password', required: true, autocomplete: 'off' }),
    h('button', { type: 'submit' }, 'Sign in'),
  );
  render(root, h('h1', {}, 'API keys'), h('p', {}, 'This page is served by the admin listener only. The token stays in this tab.'), form);
}
