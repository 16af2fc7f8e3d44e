/** The events the erc4626 indexer decodes, as the contracts declare them (topic0 derived from each signature). */
import { eventTopics } from '../indexing/event-topic';

export const ERC4626_EVENTS = eventTopics({
  /** ERC-4626 */
  vaultDeposit: 'Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)',
  /** ERC-4626 */
  vaultWithdraw: 'Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)',
});
