/** Aave V3 markets: the aToken is entered by the Pool's `supply` and left by its `withdraw`. */
import type { ProtocolModule } from '../protocol-module';

export const aaveV3: ProtocolModule<'aave-v3'> = {
  family: 'aave-v3',
  category: 'lending',
  tokenKind: (underlying) => (underlying.length === 1 ? 'lending' : 'basic'),
  dex: null,
};
