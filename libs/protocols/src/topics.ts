/** topic0 of every event the indexer reads, from the families' declared events (`topics.spec.ts` checks each against ethers). */
import { AAVE_V3_EVENTS } from './aave-v3/events';
import { BASIC_EVENTS } from './basic/events';
import { ERC4626_EVENTS } from './erc4626/events';
import { UNISWAP_V2_EVENTS } from './uniswap-v2/events';
import { UNISWAP_V3_EVENTS } from './uniswap-v3/events';
import { UNISWAP_V4_EVENTS } from './uniswap-v4/events';

export const TOPICS = {
  ...BASIC_EVENTS,
  ...UNISWAP_V2_EVENTS,
  ...UNISWAP_V3_EVENTS,
  ...UNISWAP_V4_EVENTS,
  ...ERC4626_EVENTS,
  ...AAVE_V3_EVENTS,
} as const;
