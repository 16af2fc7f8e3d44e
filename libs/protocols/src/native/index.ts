/** The network's native token (ETH, POL, ...): held and sent as value, swapped as its wrapped token. */
import type { ProtocolModule } from '../protocol-module';
import { nativeAdapter } from './indexer';

export const native = {
  family: 'native',
  category: 'native',
  tokenKind: () => 'native',
  dex: null,
  issuer: null,
  indexer: nativeAdapter,
  balances: 'transfers',
  options: {},
} satisfies ProtocolModule<'native'>;
