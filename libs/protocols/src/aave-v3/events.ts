/** The events the aave-v3 indexer decodes, as the contracts declare them (topic0 derived from each signature). */
import { eventTopics } from '../indexing/event-topic';

export const AAVE_V3_EVENTS = eventTopics({
  /** Aave PoolConfigurator */
  aaveReserveInitialized:
    'ReserveInitialized(address indexed asset, address indexed aToken, address stableDebtToken, address variableDebtToken, address interestRateStrategyAddress)',
  aaveSupply: 'Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  aaveWithdraw: 'Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
  aaveBorrow:
    'Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  aaveRepay: 'Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
  aaveReserveDataUpdated:
    'ReserveDataUpdated(address indexed reserve, uint256 liquidityRate, uint256 stableBorrowRate, uint256 variableBorrowRate, uint256 liquidityIndex, uint256 variableBorrowIndex)',
});
