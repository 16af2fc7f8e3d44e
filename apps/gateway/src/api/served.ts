import type { EndpointDef, EndpointId, Endpoints, ParsedQuery, Static } from '@tokensvc/api';
import { RPC } from '@tokensvc/messages';
import type { EncodedBody } from '@tokensvc/transport';
import type { CallContext } from './call-context';
import { DATA_ENDPOINTS } from './data-forwarding';
import { TRADING_ENDPOINTS } from './trading-forwarding';
import { PUSH_ENDPOINTS } from './webhook-forwarding';

export type { CallContext } from './call-context';

/** A handler answers the response object, or the encoded body a service made for the caller's view (sent as it is). */
export type ServedHandler<E> =
  E extends EndpointDef<infer Q, infer R> ? (query: ParsedQuery<Q>, ctx: CallContext) => Promise<Static<R> | EncodedBody> : never;

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
  // webhooks; the SSE status stream is added by bootstrap.ts (it needs the gateway's event hub)
  ...PUSH_ENDPOINTS,
};
