/** Friendly names for the generated OpenAPI types (generated/schema.d.ts; types only, nothing at run time). */
import type { components, operations, paths } from './generated/schema';

export type { components, operations, paths };
export type Schemas = components['schemas'];
export type Token = Schemas['Token'];
export type Order = Schemas['Order'];
export type OrderContext = Schemas['OrderContext'];
export type RelayedOrder = Schemas['RelayedOrder'];
export type Approval = Schemas['Approval'];
export type Estimate = Schemas['Estimate'];
export type Tx = Schemas['Tx'];
export type TypedData = Schemas['TypedData'];
export type CrossChainStatus = Schemas['CrossChainStatus'];
export type CrossChainStatusEvent = Schemas['CrossChainStatusEvent'];
export type ErrorBody = Schemas['Error'];
/** The closed set of machine-readable error codes the service answers with. */
export type ErrorCode = ErrorBody['code'];
export type RelayStatus = RelayedOrder['status'];
export type CrossChainStatusName = CrossChainStatus['status'];

/** Query parameters of an operation. */
export type QueryOf<Op extends keyof operations> = operations[Op]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;
export type ListTokensQuery = QueryOf<'listTokens'>;
export type PortalQuery = QueryOf<'portal'>;
