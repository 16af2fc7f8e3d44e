import { CandlestickSeries, createChart, type CandlestickData, type IChartApi, type UTCTimestamp } from 'lightweight-charts';
import type { HistoryEntry } from './history';

/** Price candles (TradingView's lightweight-charts); entries without a full OHLC are left out. */
export function candles(history: HistoryEntry[]): CandlestickData<UTCTimestamp>[] {
  const out: CandlestickData<UTCTimestamp>[] = [];
  for (const e of history) {
    const [open, high, low, close] = [e.openPrice, e.highPrice, e.lowPrice, e.closePrice].map(Number) as [number, number, number, number];
    if (![open, high, low, close].every((n) => Number.isFinite(n) && n > 0)) continue;
    out.push({ time: Math.floor(Date.parse(e.time) / 1000) as UTCTimestamp, open, high, low, close });
  }
  // the chart wants strictly increasing times
  out.sort((a, b) => a.time - b.time);
  return out.filter((c, i) => i === 0 || c.time !== out[i - 1]!.time);
}

/**
 * Draws the candles into `container`; the count and the last candle (its time and close) are kept
 * on it (data-candles, data-last-time, data-last-close) for tests and screen readers' summary.
 */
export function drawCandles(container: HTMLElement, data: CandlestickData<UTCTimestamp>[]): IChartApi {
  const chart = createChart(container, {
    autoSize: true,
    layout: { background: { color: '#ffffff' }, textColor: '#1f2933' },
    grid: { vertLines: { color: '#e4e7eb' }, horzLines: { color: '#e4e7eb' } },
    timeScale: { timeVisible: true },
  });
  const series = chart.addSeries(CandlestickSeries, {
    upColor: '#0b7a3e',
    downColor: '#b3261e',
    borderVisible: false,
    wickUpColor: '#0b7a3e',
    wickDownColor: '#b3261e',
  });
  series.setData(data);
  chart.timeScale().fitContent();
  container.dataset['candles'] = String(series.data().length);
  const last = data[data.length - 1];
  if (last) {
    container.dataset['lastTime'] = new Date(last.time * 1000).toISOString();
    container.dataset['lastClose'] = String(last.close);
  }
  return chart;
}
