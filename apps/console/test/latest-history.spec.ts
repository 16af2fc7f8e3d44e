import { type HistoryEntry, type HistoryPage, MAX_HISTORY_PAGES, latestHistory } from '../src/views/history';

const HOUR = 3_600_000;
const START = Date.parse('2026-01-01T00:00:00Z');

/** `n` hourly candles, oldest first, the close rising by one each hour (so the latest is the largest). */
function series(n: number): HistoryEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    time: new Date(START + i * HOUR).toISOString(),
    openPrice: String(i),
    highPrice: String(i + 1),
    lowPrice: String(i),
    closePrice: String(i + 1),
  }));
}

/** GET /v2/tokens/history as token-data pages it: oldest first, 100 a page, the total on every page. */
function server(all: HistoryEntry[]): { fetchPage: (page: number) => Promise<HistoryPage>; asked: number[] } {
  const asked: number[] = [];
  const fetchPage = async (page: number): Promise<HistoryPage> => {
    asked.push(page);
    const history = all.slice(page * 100, page * 100 + 100);
    return { history, totalItems: all.length, more: page * 100 + history.length < all.length };
  };
  return { fetchPage, asked };
}

describe('the console chart asks for the latest candles of its window (GET /v2/tokens/history pages oldest first)', () => {
  it('a window of 168 hourly candles (1h over 7 days): all of them, ending at the latest, not the first page of 100', async () => {
    const all = series(168);
    const s = server(all);
    const got = await latestHistory(s.fetchPage);
    expect(got).toEqual(all);
    expect(got.at(-1)).toEqual({ time: all.at(-1)!.time, openPrice: '167', highPrice: '168', lowPrice: '167', closePrice: '168' });
    expect(s.asked).toEqual([0, 1]);
  });

  it('a window of one page: that page, asked once', async () => {
    const all = series(42);
    const s = server(all);
    expect(await latestHistory(s.fetchPage)).toEqual(all);
    expect(s.asked).toEqual([0]);
  });

  it('a window far larger than the chart takes: the latest pages only, still ending at the latest candle', async () => {
    const all = series(100 * (MAX_HISTORY_PAGES + 5) + 37);
    const s = server(all);
    const got = await latestHistory(s.fetchPage);
    expect(got.at(-1)).toEqual(all.at(-1));
    expect(got).toEqual(all.slice(all.length - got.length));
    expect(got.length).toBe(100 * (MAX_HISTORY_PAGES - 1) + 37);
    expect(s.asked).toHaveLength(MAX_HISTORY_PAGES + 1);
  });

  it('an empty window: nothing, asked once', async () => {
    const s = server([]);
    expect(await latestHistory(s.fetchPage)).toEqual([]);
    expect(s.asked).toEqual([0]);
  });
});
