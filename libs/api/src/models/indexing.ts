import { Type } from '@sinclair/typebox';
import { nullable, type Static } from '../schema/types';

/**
 * One network's indexing progress, as the indexer's status port reports it (`GET /status`) and
 * `GET /v3/indexing/status` forwards it: the gateway's route, the console's Indexing page and
 * `npm start`'s progress lines all read this shape. It imports nothing Node-only, so the browser
 * console can type-check against it.
 */
export const IndexingProgress = Type.Object({
  network: Type.String(),
  head: nullable(Type.Integer()),
  cursor: nullable(Type.Integer()),
  lag: nullable(Type.Integer()),
  blocksPerSecond: Type.Number(),
  eventsPerSecond: Type.Number(),
  etaSeconds: nullable(Type.Number()),
  percent: Type.Number(),
  caughtUp: Type.Boolean(),
});
export type IndexingProgress = Static<typeof IndexingProgress>;
