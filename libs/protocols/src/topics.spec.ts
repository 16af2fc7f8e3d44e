import { id } from 'ethers';
import { TOPICS } from './topics';

const SIGNATURES: Record<keyof typeof TOPICS, string> = {
  transfer: 'Transfer(address,address,uint256)',
  wethDeposit: 'Deposit(address,uint256)',
  wethWithdrawal: 'Withdrawal(address,uint256)',
  v2PairCreated: 'PairCreated(address,address,address,uint256)',
  v2Sync: 'Sync(uint112,uint112)',
  v2Swap: 'Swap(address,uint256,uint256,uint256,uint256,address)',
  v2Mint: 'Mint(address,uint256,uint256)',
  v2Burn: 'Burn(address,uint256,uint256,address)',
  v3PoolCreated: 'PoolCreated(address,address,uint24,int24,address)',
  v3Initialize: 'Initialize(uint160,int24)',
  v3Swap: 'Swap(address,address,int256,int256,uint160,uint128,int24)',
  v3Mint: 'Mint(address,address,int24,int24,uint128,uint256,uint256)',
  v3Burn: 'Burn(address,int24,int24,uint128,uint256,uint256)',
  v4Initialize: 'Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)',
  v4ModifyLiquidity: 'ModifyLiquidity(bytes32,address,int24,int24,int256,bytes32)',
  v4Swap: 'Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)',
  v4Donate: 'Donate(bytes32,address,uint256,uint256)',
  vaultDeposit: 'Deposit(address,address,uint256,uint256)',
  vaultWithdraw: 'Withdraw(address,address,address,uint256,uint256)',
  aaveReserveInitialized: 'ReserveInitialized(address,address,address,address,address)',
  aaveSupply: 'Supply(address,address,address,uint256,uint16)',
  aaveWithdraw: 'Withdraw(address,address,address,uint256)',
  aaveBorrow: 'Borrow(address,address,address,uint256,uint8,uint256,uint16)',
  aaveRepay: 'Repay(address,address,address,uint256,bool)',
  aaveReserveDataUpdated: 'ReserveDataUpdated(address,uint256,uint256,uint256,uint256,uint256)',
};

describe('event topics', () => {
  it.each(Object.entries(SIGNATURES))('%s is keccak256 of its signature', (name, signature) => {
    expect(TOPICS[name as keyof typeof TOPICS]).toBe(id(signature));
  });

  it('are all distinct', () => {
    expect(new Set(Object.values(TOPICS)).size).toBe(Object.keys(TOPICS).length);
  });
});
