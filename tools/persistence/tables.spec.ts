import { usage, withoutComments } from './tables';

describe('the table usage scan', () => {
  it('reads no table name out of comments, and keeps code and URLs', () => {
    const text = [
      '/** The row lock taken by the UPDATE orders two lines down */',
      "const url = 'http://127.0.0.1:5432'; // INSERT INTO orders in a comment",
      'await q.query(`SELECT * FROM orders`);',
    ].join('\n');
    const out = withoutComments(text);
    expect(out).not.toMatch(/UPDATE orders|INSERT INTO orders/);
    expect(out).toContain("'http://127.0.0.1:5432'");
    expect(out).toContain('SELECT * FROM orders');
  });

  it('lists the quote service alone as the writer of orders (the status tracker only reads them)', () => {
    const orders = usage(['orders']).get('orders')!;
    expect([...orders.writers]).toEqual(['apps/quote']);
    expect([...orders.readers]).toContain('apps/status-tracker');
  });
});
