/**
 * Gas of a route as the router contract runs it. Defaults from anvil: an order with one Router02
 * swap used 193k (warm) to 256k gas (cold recipient and partner), each further V2 leg ~110k. The
 * V3 figures are estimates; a validated order is simulated for its real gas anyway.
 */
import type { RouteLeg } from './evaluate';

export interface GasModel {
  /** transaction, input pull, fee, executor call, output sweep and check */
  base: number;
  /** a Uniswap V2 Router02 swap through the executor (approval set and reset included) */
  v2Swap: number;
  /** a Uniswap V3 SwapRouter exactInputSingle through the executor */
  v3Swap: number;
  /** each initialized V3 tick crossed */
  v3Tick: number;
}

export const DEFAULT_GAS_MODEL: GasModel = { base: 120_000, v2Swap: 110_000, v3Swap: 130_000, v3Tick: 20_000 };

export function routeGas(legs: readonly Pick<RouteLeg, 'family' | 'ticksCrossed'>[], model: GasModel = DEFAULT_GAS_MODEL): number {
  let gas = model.base;
  for (const leg of legs) {
    switch (leg.family) {
      case 'uniswap-v2':
        gas += model.v2Swap;
        break;
      case 'uniswap-v3':
        gas += model.v3Swap + model.v3Tick * leg.ticksCrossed;
        break;
    }
  }
  return gas;
}
