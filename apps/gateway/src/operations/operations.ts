import { endpointList, type AccessClass, type EndpointDef } from '@tokensvc/api';
import { ADMIN_OPERATIONS } from './admin.endpoints';
import { CONSOLE_OPERATIONS } from './console.endpoints';
import { GATEWAY_OPERATIONS } from './gateway.endpoints';
import { CORS_PREFLIGHT_ROUTE } from '../http/cors';

export interface Operation {
  readonly id: string;
  readonly def: EndpointDef;
}

/** Every route the gateway serves, declared once: public interface, admin API, probes and docs. */
export const OPERATIONS: readonly Operation[] = [
  ...endpointList(),
  ...Object.entries({ ...ADMIN_OPERATIONS, ...GATEWAY_OPERATIONS, ...CONSOLE_OPERATIONS }).map(([id, def]) => ({
    id,
    def: def as EndpointDef,
  })),
];

const routeKey = (method: string, url: string): string => `${method} ${url}`;

const ACCESS = new Map<string, AccessClass>([
  ...OPERATIONS.map((o): [string, AccessClass] => [routeKey(o.def.method, o.def.path), o.def.access]),
  // CORS preflights carry no key by design (the browser strips it); present only when CORS_ORIGINS is set,
  // and not an operation of the API, so not in the OpenAPI document.
  [routeKey(CORS_PREFLIGHT_ROUTE.method, CORS_PREFLIGHT_ROUTE.url), 'public'],
]);

/** The access class of a route (Fastify route template); HEAD follows GET. Undefined: not declared. */
export function accessOf(method: string, url: string): AccessClass | undefined {
  return ACCESS.get(routeKey(method === 'HEAD' ? 'GET' : method, url));
}
