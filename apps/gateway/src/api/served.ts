import type { EndpointDef, EndpointId, Endpoints, ParsedQuery } from '@tokensvc/api';
import { RPC } from '@tokensvc/messages';
import type { CallContext } from './call-context';
import { DATA_ENDPOINTS } from './data-forwarding';
import { TRADING_ENDPOINTS } from './trading-forwarding';

export type { CallContext } from './call-context';

export type ServedHandler<E> = E extends EndpointDef<infer Q, infer R> ? (query: ParsedQuery<Q>, ctx: CallContext) => Promise<R> : never;

/** Endpoint id -> how this deployment answers it. An endpoint missing here answers 501. */
export type ServedTable = { readonly [K in EndpointId]?: ServedHandler<Endpoints[K]> };

/**
 * The endpoints served today, each a thin forward to the service that owns it over NATS. Later
 * issues add their endpoint here (one line each); everything else about the route already works.
 */
export const SERVED: ServedTable = {
  health: async () => ({ status: 'ok', timestamp: new Date().toISOString() }),
  listNetworks: async (_q, { rpc }) => (await rpc.call(RPC.listNetworks, {})).networks,
  listPlatforms: async (q, { rpc }) => (await rpc.call(RPC.listPlatforms, { type: q.type })).platforms,
  ...DATA_ENDPOINTS,
  ...TRADING_ENDPOINTS,
};
