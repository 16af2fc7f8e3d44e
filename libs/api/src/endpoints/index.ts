import type { EndpointDef } from '../endpoint';
import { account, health, listNetworks, listPlatforms } from './catalog';
import { approval, approvalCrossChain, crossChainStatus, estimate, portal, portalStatus, portalSubmit } from './portal';
import { estimateMulti, portalMulti } from './portal-multi';
import { crossChainStatusStream, webhookDelete, webhookList, webhookRegister } from './push';
import { listTokens, tokenHistory, tokenHolders, tokenMetrics, tokenTransactions } from './tokens';

/** Every operation of the public interface (spec "Endpoints"), by id. */
export const ENDPOINTS = {
  listTokens,
  listNetworks,
  listPlatforms,
  account,
  tokenHistory,
  tokenTransactions,
  tokenMetrics,
  tokenHolders,
  portal,
  portalSubmit,
  portalStatus,
  crossChainStatus,
  crossChainStatusStream,
  webhookRegister,
  webhookList,
  webhookDelete,
  estimate,
  portalMulti,
  estimateMulti,
  approval,
  approvalCrossChain,
  health,
} as const;

export type EndpointId = keyof typeof ENDPOINTS;
export type Endpoints = typeof ENDPOINTS;

export const ENDPOINT_IDS = Object.keys(ENDPOINTS) as EndpointId[];

export function endpointList(): { id: EndpointId; def: EndpointDef }[] {
  return ENDPOINT_IDS.map((id) => ({ id, def: ENDPOINTS[id] as EndpointDef }));
}
export { MAX_MULTI_INPUTS, multiInputProblem } from './portal-multi';
