import { errorBox, h, render } from '../dom';

interface StatusEvent {
  type: string;
  seq: number;
  createdAt: string;
  record: { status: string; statusReason?: string; destinationTxHashes?: string[]; fromChainId?: number; toChainId?: number };
}

const TERMINAL = new Set(['SUCCESS', 'REFUND_STATUS', 'FAILED']);
const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TX_HASH = /^0x[0-9a-f]{64}$/i;

/**
 * Follows one cross-chain order live over the gateway's SSE stream (GET /v3/portal/status/stream).
 * An EventSource sends no Authorization header, so the stream is opened as an anonymous trading
 * call (limited per client address); it resumes by Last-Event-ID on its own after a drop.
 */
export function orderView(root: HTMLElement, params: URLSearchParams, signal: AbortSignal): void {
  const orderId = params.get('orderId') ?? '';
  const txHash = params.get('txHash') ?? '';
  const form = h(
    'form',
    { id: 'order-form', onsubmit: (e: Event) => go(e) },
    h('label', { for: 'orderId' }, 'Order id (context.orderId)'),
    h('input', { id: 'orderId', name: 'orderId', required: true, value: orderId, size: 40 }),
    h('label', { for: 'txHash' }, 'Origin transaction hash'),
    h('input', { id: 'txHash', name: 'txHash', required: true, value: txHash, size: 70 }),
    h('button', { type: 'submit' }, 'Follow'),
  );
  const status = h('p', { id: 'order-status', role: 'status', 'aria-live': 'polite' });
  const events = h('ol', { id: 'order-events', 'aria-label': 'Status events' });
  render(root, h('h1', {}, 'Order'), form, status, h('h2', {}, 'Events'), events);
  if (!orderId && !txHash) return render(status, 'Enter an order id and its origin transaction hash.');
  if (!ORDER_ID.test(orderId) || !TX_HASH.test(txHash))
    return render(status, errorBox('The order id must be a UUID and the transaction hash 0x followed by 64 hex digits.'));

  render(status, 'Connecting…');
  const source = new EventSource(`/v3/portal/status/stream?${new URLSearchParams({ orderId, txHash })}`);
  signal.addEventListener('abort', () => source.close());
  source.onmessage = (m: MessageEvent<string>) => {
    const e = JSON.parse(m.data) as StatusEvent;
    const s = e.record.status;
    status.dataset['status'] = s;
    render(
      status,
      'Status: ',
      h('strong', {}, s),
      e.record.statusReason ? ` — ${e.record.statusReason}` : '',
      TERMINAL.has(s) ? ' (final)' : ' (following live…)',
    );
    events.append(
      h(
        'li',
        { 'data-type': e.type },
        `${new Date(e.createdAt).toLocaleTimeString()} · ${e.type} · ${s}${e.record.destinationTxHashes?.length ? ` · destination ${e.record.destinationTxHashes[0]}` : ''}`,
      ),
    );
    if (TERMINAL.has(s)) source.close();
  };
  source.onerror = () => {
    // EventSource retries by itself; a closed source (404/400/204) does not
    if (source.readyState === EventSource.CLOSED && !TERMINAL.has(status.dataset['status'] ?? ''))
      render(status, errorBox('The stream closed: the order or transaction is not known, or the request was refused.'));
  };
}

function go(e: Event): void {
  e.preventDefault();
  const data = new FormData(e.target as HTMLFormElement);
  location.hash = `#/order?${new URLSearchParams({ orderId: String(data.get('orderId') ?? '').trim(), txHash: String(data.get('txHash') ?? '').trim() })}`;
}
