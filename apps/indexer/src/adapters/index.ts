import type { PlatformFamily } from '@tokensvc/domain';
import { aaveV3Adapter } from './aave-v3.adapter';
import { basicAdapter } from './basic.adapter';
import { erc4626Adapter } from './erc4626.adapter';
import { nativeAdapter } from './native.adapter';
import type { ProtocolAdapter } from './protocol-adapter';
import { uniswapV2Adapter } from './uniswap-v2.adapter';
import { uniswapV3Adapter } from './uniswap-v3.adapter';

/** One adapter per family; a new family fails to compile until it has one. */
export const ADAPTERS: Record<PlatformFamily, ProtocolAdapter> = {
  native: nativeAdapter,
  basic: basicAdapter,
  'uniswap-v2': uniswapV2Adapter,
  'uniswap-v3': uniswapV3Adapter,
  erc4626: erc4626Adapter,
  'aave-v3': aaveV3Adapter,
};

export type { ProtocolAdapter, LogHandler, FastLogHandler, DiscoveryHandler, SeedContext } from './protocol-adapter';
