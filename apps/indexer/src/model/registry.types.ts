/** The registry's entities (pools, their states, tokens, discoveries): the protocol modules' indexing types. */
export type { PoolFamily, PoolInfo, PoolState, TokenSeed, Discovery } from '@tokensvc/protocols';
