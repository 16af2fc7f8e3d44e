/** The events the uniswap-v2 indexer decodes, as the contracts declare them (topic0 derived from each signature). */
import { eventTopics } from '../indexing/event-topic';

export const UNISWAP_V2_EVENTS = eventTopics({
  v2PairCreated: 'PairCreated(address indexed token0, address indexed token1, address pair, uint256)',
  v2Sync: 'Sync(uint112 reserve0, uint112 reserve1)',
  v2Swap: 'Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  v2Mint: 'Mint(address indexed sender, uint256 amount0, uint256 amount1)',
  v2Burn: 'Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)',
});
