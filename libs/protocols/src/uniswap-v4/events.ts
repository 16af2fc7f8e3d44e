/** The events the uniswap-v4 indexer decodes: the PoolManager's, as v4-core declares them (topic0 derived from each signature). */
import { eventTopics } from '../indexing/event-topic';

export const UNISWAP_V4_EVENTS = eventTopics({
  v4Initialize:
    'Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, ' +
    'uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
  v4ModifyLiquidity:
    'ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
  v4Swap:
    'Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
  v4Donate: 'Donate(bytes32 indexed id, address indexed sender, uint256 amount0, uint256 amount1)',
});
