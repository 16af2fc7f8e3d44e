/** Aave V3 markets: the aToken is entered by the Pool's `supply` and left by its `withdraw`. */
import { Interface, MaxUint256 } from 'ethers';
import { allOf } from '../call-inputs';
import type { ProtocolModule } from '../protocol-module';
import { aaveV3Adapter } from './indexer';

const AAVE_POOL = new Interface([
  'function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)',
  'function withdraw(address asset, uint256 amount, address to) returns (uint256)',
]);

export const aaveV3 = {
  family: 'aave-v3',
  category: 'lending',
  tokenKind: (underlying) => (underlying.length === 1 ? 'lending' : 'basic'),
  dex: null,
  issuer: {
    kind: 'lending',
    enter: {
      gas: 220_000,
      calls: (a, env) => [
        {
          target: a.pool,
          value: 0n,
          data: AAVE_POOL.encodeFunctionData('supply', [a.asset, 0n, env.executor, 0]),
          inputs: [allOf(a.asset, 1, true)],
        },
      ],
    },
    // type(uint256).max withdraws the executor's whole position (its exact balance is index-scaled).
    exit: {
      gas: 200_000,
      calls: (a, env) => [
        { target: a.pool, value: 0n, data: AAVE_POOL.encodeFunctionData('withdraw', [a.asset, MaxUint256, env.executor]), inputs: [] },
      ],
    },
  },
  indexer: aaveV3Adapter,
  balances: 'live',
  options: {},
} satisfies ProtocolModule<'aave-v3'>;
