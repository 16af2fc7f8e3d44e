/** Candles of a token's price chart, fetched without DOM or chart code (unit-tested in apps/console/test). */

export interface HistoryEntry {
  time: string;
  openPrice: string;
  highPrice: string;
  lowPrice: string;
  closePrice: string;
}

export interface HistoryPage {
  history: HistoryEntry[];
  totalItems: number | string;
  more: boolean;
}

/** The most pages one chart asks for: its windows fill two at most (180 days of 1d, 2 days of 15m candles). */
export const MAX_HISTORY_PAGES = 10;

/**
 * The latest candles of the window, oldest first. GET /v2/tokens/history answers oldest first, a
 * page at a time, so its first page alone ends long before now when the window holds more than a
 * page; the chart must end at the latest candle, the price the page prints above it. The first
 * page gives the page size and the total; then up to MAX_HISTORY_PAGES of the last pages.
 */
export async function latestHistory(fetchPage: (page: number) => Promise<HistoryPage>): Promise<HistoryEntry[]> {
  const first = await fetchPage(0);
  const size = first.history.length;
  if (!first.more || size === 0) return first.history;
  const last = Math.ceil(Number(first.totalItems) / size) - 1;
  const from = Math.max(1, last - MAX_HISTORY_PAGES + 1);
  const rest = await Promise.all(Array.from({ length: last - from + 1 }, (_, i) => fetchPage(from + i)));
  return [...(from === 1 ? first.history : []), ...rest.flatMap((p) => p.history)];
}
