/** ERC-4626 vaults: the share token is entered by `deposit` and left by `redeem` of its one asset. */
import { Interface } from 'ethers';
import { allOf } from '../call-inputs';
import type { ProtocolModule } from '../protocol-module';
import { erc4626Adapter } from './indexer';

const VAULT = new Interface([
  'function deposit(uint256 assets, address receiver) returns (uint256)',
  'function redeem(uint256 shares, address receiver, address owner) returns (uint256)',
]);

export const erc4626 = {
  family: 'erc4626',
  category: 'vault',
  tokenKind: (underlying) => (underlying.length === 1 ? 'vault' : 'basic'),
  dex: null,
  issuer: {
    kind: 'vault',
    enter: {
      gas: 100_000,
      calls: (a, env) => [
        { target: a.vault, value: 0n, data: VAULT.encodeFunctionData('deposit', [0n, env.executor]), inputs: [allOf(a.asset, 0, true)] },
      ],
    },
    exit: {
      gas: 75_000,
      calls: (a, env) => [
        {
          target: a.vault,
          value: 0n,
          data: VAULT.encodeFunctionData('redeem', [0n, env.executor, env.executor]),
          inputs: [allOf(a.vault, 0, false)],
        },
      ],
    },
  },
  indexer: erc4626Adapter,
  balances: 'transfers',
  options: {},
} satisfies ProtocolModule<'erc4626'>;
