/** ERC-4626 vaults: the share token is entered by `deposit` and left by `redeem` of its one asset. */
import type { ProtocolModule } from '../protocol-module';

export const erc4626: ProtocolModule<'erc4626'> = {
  family: 'erc4626',
  category: 'vault',
  tokenKind: (underlying) => (underlying.length === 1 ? 'vault' : 'basic'),
  dex: null,
};
