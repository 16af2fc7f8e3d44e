import { createHash } from 'node:crypto';
import type { CrossChainOrderStore, StoredQuote } from '../tracking/cross-chain-order-store';
import { MAX_ORDERS_PER_TX, QuoteMatcher, orderFromQuote } from './quote-matcher';

const md5 = (s: string): string => createHash('md5').update(s).digest('hex');
const ROUTER = '0x00000000000000000000000000000000000000aa';
const hash = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;

type Quote = StoredQuote & { orderId: string };

function quote(orderId: string, data: string, o: { to?: string; outputToken?: string; network?: 'ethereum' | 'base' } = {}): Quote {
  return {
    orderId,
    network: o.network ?? 'ethereum',
    chainId: o.network === 'base' ? 8453 : 1,
    context: { orderId, outputToken: o.outputToken ?? 'base:0x0000000000000000000000000000000000000001' },
    tx: { to: o.to ?? ROUTER, data },
  };
}

/** The one store query the matcher makes, over an in-memory `orders` table (as the SQL filters it: network, md5 of the data). */
class FakeOrders {
  queries: Array<{ network: string; digests: readonly string[] }> = [];
  constructor(private readonly quotes: Quote[]) {}
  async crossChainQuotesByTxData(network: string, digests: readonly string[]): Promise<Quote[]> {
    this.queries.push({ network, digests });
    return this.quotes.filter((q) => q.network === network && digests.includes(md5(String((q.tx as { data: string }).data).toLowerCase())));
  }
}

const matcher = (quotes: Quote[]) => {
  const store = new FakeOrders(quotes);
  return { store, m: new QuoteMatcher(store as unknown as CrossChainOrderStore, 'across') };
};

describe('QuoteMatcher', () => {
  it('matches a transaction to the stored quote with its exact input and target', async () => {
    const { m } = matcher([quote('a', '0xabcdef'), quote('b', '0x1234')]);
    expect(await m.match('ethereum', [{ hash: hash(1), to: ROUTER, input: '0xABCDEF' }])).toEqual([
      { orderId: 'a', txHash: hash(1), provider: 'across', fromNetwork: 'ethereum', fromChainId: 1, toNetwork: 'base', toChainId: 8453 },
    ]);
  });

  it('does not match another target, other data, or no target', async () => {
    const { m } = matcher([quote('a', '0xabcdef')]);
    expect(await m.match('ethereum', [{ hash: hash(1), to: '0x00000000000000000000000000000000000000bb', input: '0xabcdef' }])).toEqual([]);
    expect(await m.match('ethereum', [{ hash: hash(2), to: ROUTER, input: '0xabcdee' }])).toEqual([]);
    expect(await m.match('ethereum', [{ hash: hash(3), to: null, input: '0xabcdef' }])).toEqual([]);
  });

  it('only looks at quotes of the network the deposit was made on', async () => {
    const { m, store } = matcher([quote('a', '0xabcdef', { network: 'base', outputToken: 'ethereum:0x01' })]);
    expect(await m.match('ethereum', [{ hash: hash(1), to: ROUTER, input: '0xabcdef' }])).toEqual([]);
    expect(store.queries).toEqual([{ network: 'ethereum', digests: [md5('0xabcdef')] }]);
  });

  it('gives every quote with identical calldata its row, up to the per-transaction bound', async () => {
    const quotes = Array.from({ length: MAX_ORDERS_PER_TX + 3 }, (_, i) => quote(`q${i}`, '0xfeed'));
    const { m } = matcher(quotes);
    const rows = await m.match('ethereum', [{ hash: hash(1), to: ROUTER, input: '0xfeed' }]);
    expect(rows.map((r) => r.orderId)).toEqual(quotes.slice(0, MAX_ORDERS_PER_TX).map((q) => q.orderId));
  });

  it('skips a same-chain quote', () => {
    expect(orderFromQuote('a', hash(1), 'across', quote('a', '0x', { outputToken: 'ethereum:0x01' }))).toBeUndefined();
  });

  it('names no destination when the output token is not a known network', () => {
    expect(orderFromQuote('a', hash(1), 'across', quote('a', '0x', { outputToken: 'nowhere:0x01' }))).toMatchObject({
      toNetwork: undefined,
      toChainId: undefined,
    });
  });
});
