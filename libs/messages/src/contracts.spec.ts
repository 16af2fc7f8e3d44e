import { RPC } from './contracts';

describe('RPC contracts: which calls may be sent twice', () => {
  it('marks every read and the order submission idempotent, and never the webhook changes', () => {
    const once = Object.entries(RPC)
      .filter(([, c]) => c.idempotent !== true)
      .map(([name]) => name)
      .sort();
    // A second registration would make a second webhook, a second deletion would answer 404.
    expect(once).toEqual(['deleteWebhook', 'registerWebhook']);
    // The relayer keeps one submission per order and signature: a second POST answers the first's state.
    expect(RPC.submitOrder.idempotent).toBe(true);
  });
});
