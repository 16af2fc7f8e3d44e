import { TOKEN_PROPS } from '@tokensvc/api';
import { Token, TokenMetrics } from '@tokensvc/messages';
import { toApiToken, toBalance } from './data-forwarding';

const token = Token.fromJSON({
  key: 'ethereum:0x01', name: 'T', decimals: 6, symbol: 'T', address: '0x01', addresses: { ethereum: '0x01' }, platform: 'basic', network: 'ethereum',
  price: 2.5, images: ['/i.png'], updatedAt: '2026-01-01T00:00:00.000Z', metrics: { apy: '1.5', price1d: '0.5' }, metadata: { family: 'basic' }, reserves: ['1'], isPortable: true,
});

describe('token records leaving the gateway', () => {
  it('carry every field of the Token message, in its order, as the spread of the decoded message did', () => {
    expect(Object.keys(toApiToken(token))).toEqual(Object.keys(Token.fromJSON({})));
    expect(Object.keys(toApiToken(token)).sort()).toEqual(Object.keys(TOKEN_PROPS).sort());
    expect(JSON.stringify(toApiToken(token))).toBe(JSON.stringify({ ...token, metrics: token.metrics }));
  });

  it('give a missing token or metrics their empty values', () => {
    expect(toApiToken(undefined)).toEqual({ ...Token.fromJSON({}), metrics: TokenMetrics.fromJSON({}) });
    expect(toApiToken(Token.fromJSON({ key: 'k' })).metrics).toEqual(TokenMetrics.fromJSON({}));
  });

  it('put the balance fields after the token fields', () => {
    const b = toBalance({ token, balance: 1.5, balanceUsd: 3.75, rawBalance: '1500000' });
    expect(JSON.stringify(b)).toBe(JSON.stringify({ ...token, metrics: token.metrics, balance: 1.5, balanceUSD: 3.75, rawBalance: '1500000' }));
  });
});
