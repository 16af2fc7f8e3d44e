/** The events the basic indexer decodes, as the contracts declare them (topic0 derived from each signature). */
import { eventTopics } from '../indexing/event-topic';

export const BASIC_EVENTS = eventTopics({
  transfer: 'Transfer(address indexed from, address indexed to, uint256 value)',
  /** WETH9: a mint without a Transfer event */
  wethDeposit: 'Deposit(address indexed dst, uint256 wad)',
  /** WETH9: a burn without a Transfer event */
  wethWithdrawal: 'Withdrawal(address indexed src, uint256 wad)',
});
