/** The events the uniswap-v3 indexer decodes, as the contracts declare them (topic0 derived from each signature). */
import { eventTopics } from '../indexing/event-topic';

export const UNISWAP_V3_EVENTS = eventTopics({
  v3PoolCreated: 'PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
  v3Initialize: 'Initialize(uint160 sqrtPriceX96, int24 tick)',
  v3Swap:
    'Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  v3Mint:
    'Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  v3Burn: 'Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
});
