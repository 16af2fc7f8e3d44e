import { TOKEN_PROPS } from '@tokensvc/api';
import { Token, TokenMetrics } from '@tokensvc/messages';
import { apiBlock, toApiToken, toBalance } from './data-forwarding';

const BLOCKS = [
  { network: 'base', number: '5', final: true },
  { network: 'ethereum', number: '19000123', hash: `0x${'ab'.repeat(32)}`, final: false },
];
const ETH_BLOCK = { number: 19000123, hash: `0x${'ab'.repeat(32)}`, final: false };
const NO_BLOCK = { number: 0, hash: null, final: false };

const token = Token.fromJSON({
  key: 'ethereum:0x01',
  name: 'T',
  decimals: 6,
  symbol: 'T',
  address: '0x01',
  addresses: { ethereum: '0x01' },
  platform: 'basic',
  network: 'ethereum',
  price: 2.5,
  images: ['/i.png'],
  updatedAt: '2026-01-01T00:00:00.000Z',
  metrics: { apy: '1.5', price1d: '0.5' },
  metadata: { family: 'basic' },
  reserves: ['1'],
  isPortable: true,
});

describe('token records leaving the gateway', () => {
  it("carry every field of the Token message, in its order, as the spread of the decoded message did, then their network's block", () => {
    expect(Object.keys(toApiToken(token, BLOCKS))).toEqual([...Object.keys(Token.fromJSON({})), 'block']);
    expect(Object.keys(toApiToken(token, BLOCKS)).sort()).toEqual(Object.keys(TOKEN_PROPS).sort());
    expect(JSON.stringify(toApiToken(token, BLOCKS))).toBe(
      JSON.stringify({ ...token, metrics: token.metrics, historyFromBlock: null, block: ETH_BLOCK }),
    );
    // a token indexed from a later block than its creation: the block as a JSON number
    expect(toApiToken({ ...token, historyFromBlock: '18000000' }, BLOCKS).historyFromBlock).toBe(18_000_000);
  });

  it('give a missing token, metrics or block label their empty values', () => {
    expect(toApiToken(undefined)).toEqual({
      ...Token.fromJSON({}),
      metrics: TokenMetrics.fromJSON({}),
      historyFromBlock: null,
      block: NO_BLOCK,
    });
    expect(apiBlock(undefined)).toEqual(NO_BLOCK);
    expect(toApiToken(Token.fromJSON({ key: 'k' })).metrics).toEqual(TokenMetrics.fromJSON({}));
  });

  it('put the balance fields after the token fields', () => {
    const b = toBalance({ token, balance: 1.5, balanceUsd: 3.75, rawBalance: '1500000' }, BLOCKS);
    expect(JSON.stringify(b)).toBe(
      JSON.stringify({
        ...token,
        metrics: token.metrics,
        historyFromBlock: null,
        block: ETH_BLOCK,
        balance: 1.5,
        balanceUSD: 3.75,
        rawBalance: '1500000',
      }),
    );
  });
});
