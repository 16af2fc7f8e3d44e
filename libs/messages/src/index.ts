export * from './contracts';
export * from './errors';
export { ErrorCode, RpcError, PingRequest, PingReply } from './generated/tokensvc/v1/common';
export { ListNetworksRequest, ListNetworksReply, ListPlatformsRequest, ListPlatformsReply, Platform } from './generated/tokensvc/v1/catalog';
