import { endpointList, type AccessClass, type EndpointDef } from '@tokensvc/api';
import { ADMIN_OPERATIONS } from '../admin/admin.endpoints';
import { GATEWAY_OPERATIONS } from '../docs/gateway.endpoints';

export interface Operation {
  readonly id: string;
  readonly def: EndpointDef;
}

/** Every route the gateway serves, declared once: public interface, admin API, probes and docs. */
export const OPERATIONS: readonly Operation[] = [
  ...endpointList(),
  ...Object.entries({ ...ADMIN_OPERATIONS, ...GATEWAY_OPERATIONS }).map(([id, def]) => ({ id, def: def as EndpointDef })),
];

const routeKey = (method: string, url: string): string => `${method} ${url}`;

const ACCESS = new Map<string, AccessClass>(OPERATIONS.map((o) => [routeKey(o.def.method, o.def.path), o.def.access]));

/** The access class of a route (Fastify route template); HEAD follows GET. Undefined: not declared. */
export function accessOf(method: string, url: string): AccessClass | undefined {
  return ACCESS.get(routeKey(method === 'HEAD' ? 'GET' : method, url));
}
