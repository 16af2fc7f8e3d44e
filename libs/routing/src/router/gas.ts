/**
 * Gas of a route as the router contract runs it, by pool shape: the default a caller replaces
 * with its protocols' own figures (`RouteRequest.legGas`; the quote service passes each protocol
 * module's gas). Defaults from anvil: an order with one Router02 swap used 193k (warm) to 256k gas
 * (cold recipient and partner), each further constant-product leg ~110k. The concentrated-liquidity
 * figures are estimates; a validated order is simulated for its real gas anyway.
 */
import type { RouteLeg } from './evaluate';

export interface GasModel {
  /** transaction, input pull, fee, executor call, output sweep and check */
  base: number;
  /** a constant-product swap through the executor (approval set and reset included) */
  constantProduct: number;
  /** a concentrated-liquidity exactInputSingle through the executor */
  concentrated: number;
  /** each initialized tick a concentrated-liquidity swap crosses */
  tick: number;
}

export const DEFAULT_GAS_MODEL: GasModel = { base: 120_000, constantProduct: 110_000, concentrated: 130_000, tick: 20_000 };

export type LegGas = (leg: Pick<RouteLeg, 'family' | 'shape' | 'ticksCrossed'>) => number;

/** The gas model's figure for one swap, by shape. */
export function shapeGas(leg: Pick<RouteLeg, 'shape' | 'ticksCrossed'>, model: GasModel = DEFAULT_GAS_MODEL): number {
  switch (leg.shape) {
    case 'constant-product':
      return model.constantProduct;
    case 'concentrated':
      return model.concentrated + model.tick * leg.ticksCrossed;
  }
}

export function routeGas(
  legs: readonly Pick<RouteLeg, 'family' | 'shape' | 'ticksCrossed'>[],
  model: GasModel = DEFAULT_GAS_MODEL,
  legGas?: LegGas,
): number {
  return legs.reduce((gas, leg) => gas + (legGas ? legGas(leg) : shapeGas(leg, model)), model.base);
}
