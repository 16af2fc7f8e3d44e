export type { TickDelta } from '@tokensvc/protocols';
