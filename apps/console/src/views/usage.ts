import { api } from '../api';
import { errorBox, fmt, h, render, table, type Child } from '../dom';

interface Usage {
  key: { id: string; displayPrefix: string; tier: string };
  day: string;
  month: string;
  monthResetsAt: string;
  quota: { limit: number | null; used: number; remaining: number | null };
  rateLimits: { surface: string; limit: number; remaining: number; windowSeconds: number; resetSeconds: number }[];
  endpoints: { endpoint: string; today: number; month: number }[];
  days: { day: string; calls: number }[];
}

export const readUsage = (): Promise<Usage> => api<Usage>('/v3/portal/usage');

/** The signed-in key's usage: quota, rate windows, calls per endpoint, daily totals. */
export async function usageView(root: HTMLElement): Promise<void> {
  const body = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading usage…'));
  const refresh = async (): Promise<void> => {
    try {
      const u = await readUsage();
      render(body, ...usageParts(u));
    } catch (e) {
      render(body, errorBox(`Usage could not be read: ${(e as Error).message}`));
    }
  };
  render(
    root,
    h('h1', {}, 'Usage'),
    h('p', {}, 'Reading this page counts as one data call of your key.'),
    h('button', { type: 'button', id: 'usage-refresh', onclick: () => void refresh() }, 'Refresh'),
    body,
  );
  await refresh();
}

function usageParts(u: Usage): Child[] {
  const quota = u.quota;
  const quotaText =
    quota.limit === null
      ? `${fmt.int(quota.used)} calls this month (no monthly quota on the ${u.key.tier} plan)`
      : `${fmt.int(quota.used)} of ${fmt.int(quota.limit)} calls this month (${fmt.int(quota.remaining)} left)`;
  const total = (k: 'today' | 'month'): number => u.endpoints.reduce((s, e) => s + e[k], 0);
  return [
    h('p', {}, 'Key ', h('code', {}, `${u.key.displayPrefix}…`), ` (${u.key.tier} plan), UTC day ${u.day}.`),
    h('h2', {}, 'Monthly quota'),
    h('p', { id: 'quota-text' }, quotaText, `; resets ${new Date(u.monthResetsAt).toUTCString()}.`),
    quota.limit === null ? null : h('progress', { max: quota.limit, value: quota.used, 'aria-label': 'monthly quota used' }),
    h('h2', {}, 'Rate-limit windows'),
    table(
      'Rolling windows (what is left now, without spending a call)',
      ['Surface', 'Limit', 'Remaining', 'Window', 'A slot frees in'],
      u.rateLimits.map((w) => [
        w.surface,
        fmt.int(w.limit),
        fmt.int(w.remaining),
        `${w.windowSeconds} s`,
        w.resetSeconds === 0 ? 'now' : `${w.resetSeconds} s`,
      ]),
      { id: 'rate-windows' },
    ),
    h('h2', {}, 'Calls per endpoint'),
    table(
      `Today ${fmt.int(total('today'))} calls, this month ${fmt.int(total('month'))} (per-endpoint counts land within seconds)`,
      ['Endpoint', 'Today', 'This month'],
      u.endpoints.map((e) => [
        h('code', {}, e.endpoint),
        h('span', { 'data-endpoint': e.endpoint, 'data-today': e.today }, fmt.int(e.today)),
        fmt.int(e.month),
      ]),
      { id: 'usage-endpoints' },
    ),
    h('h2', {}, 'Calls per day'),
    table(
      'Daily totals (last 31 days)',
      ['Day', 'Calls'],
      u.days.map((d) => [d.day, fmt.int(d.calls)]),
    ),
  ];
}
