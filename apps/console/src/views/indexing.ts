import type { IndexingProgress } from '@tokensvc/api';
import { api } from '../api';
import { errorBox, fmt, h, render, table } from '../dom';

/** Each network's indexing progress, re-read every few seconds while the page is open. */
export async function indexingView(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const body = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading…'));
  render(
    root,
    h('h1', {}, 'Indexing'),
    h('p', {}, 'Head, cursor, lag and ETA of every network, as the indexer reports them (refreshed every 5 s).'),
    body,
  );
  const read = async (): Promise<void> => {
    try {
      const r = await api<{ readAt: string; networks: IndexingProgress[] }>('/v3/indexing/status');
      render(
        body,
        table(
          `Read at ${new Date(r.readAt).toLocaleTimeString()}`,
          ['Network', 'Head', 'Cursor', 'Lag (blocks)', 'Progress', 'Blocks/s', 'Events/s', 'ETA', 'State'],
          r.networks.map((n) => [
            n.network,
            fmt.int(n.head),
            fmt.int(n.cursor),
            fmt.int(n.lag),
            `${n.percent}%`,
            String(n.blocksPerSecond),
            String(n.eventsPerSecond),
            n.caughtUp ? '—' : fmt.seconds(n.etaSeconds),
            n.caughtUp ? 'caught up' : 'catching up',
          ]),
          { id: 'indexing-table' },
        ),
      );
    } catch (e) {
      render(body, errorBox(`Indexing status could not be read: ${(e as Error).message}`));
    }
  };
  await read();
  const timer = setInterval(() => void read(), 5000);
  signal.addEventListener('abort', () => clearInterval(timer));
}
