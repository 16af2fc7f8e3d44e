/**
 * The parts of Across's SpokePool the provider uses, as human-readable ethers fragments: they live
 * in @tokensvc/contracts (the devnet's relayer decodes the same events); `across-abi.spec.ts` checks
 * them against the package's artifact.
 */
export {
  ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET,
  ACROSS_FILL_STATUS,
  ACROSS_SPOKE_POOL_FRAGMENTS,
  ACROSS_TOPICS,
  acrossSpokePoolInterface,
  fromBytes32,
  toBytes32,
} from '@tokensvc/contracts';
