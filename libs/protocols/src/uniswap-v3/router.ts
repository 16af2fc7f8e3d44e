/** Which Uniswap V3 swap router a hop goes through, and the refusal when a platform names none. */

/** A Uniswap V3 swap router and the exactInputSingle it takes. */
export interface V3Router {
  /** `swapRouter`: v3-periphery SwapRouter (struct with `deadline`); `swapRouter02`: swap-router-contracts SwapRouter02 (without) */
  kind: 'swapRouter' | 'swapRouter02';
  address: string;
}

/**
 * The one rule for which router a V3 hop goes through: the platform's `router` (the original
 * SwapRouter, which the devnet deploys) when it has one, else its `swapRouter02` (the only V3
 * router the real networks' address books name; Base has no original SwapRouter). Undefined
 * when it has neither: such a hop cannot be built.
 */
export function v3RouterOf(addresses: Readonly<Record<string, string>> | undefined): V3Router | undefined {
  const router = addresses?.['router'];
  if (router) return { kind: 'swapRouter', address: router };
  const router02 = addresses?.['swapRouter02'];
  if (router02) return { kind: 'swapRouter02', address: router02 };
  return undefined;
}

/** The refusal (400) of a V3 hop on a platform that names no swap router (v3RouterOf). */
export function v3RouterMissingMessage(slug: string, network: string): string {
  return (
    `unsupported: platform ${slug} has no router configured on ${network}: a Uniswap V3 swap needs its \`router\` (SwapRouter) ` +
    `or its \`swapRouter02\` (SwapRouter02) address in the devnet manifest or the registry`
  );
}
