/** Plain ERC-20 tokens: no protocol of their own; entered and left by swapping. */
import type { ProtocolModule } from '../protocol-module';
import { basicAdapter } from './indexer';

export const basic = {
  family: 'basic',
  category: 'basic',
  tokenKind: () => 'basic',
  dex: null,
  issuer: null,
  indexer: basicAdapter,
  balances: 'transfers',
  options: {},
} satisfies ProtocolModule<'basic'>;
