export * from './provider';
export * from './tokens';
export * from './across/across-abi';
export * from './across/across-config';
export {
  type AcrossDepositEvent,
  type AcrossFillEvent,
  type AcrossRefundLeafEvent,
  decodeFilledRelay,
  decodeFundsDeposited,
  decodeRefundLeaf,
} from './across/across-events';
export {
  ACROSS_BRIDGE_NAME,
  AcrossBridgeProvider,
  type AcrossBridgeProviderOptions,
  type AcrossDepositRecord,
} from './across/across-provider';
export * from './across/fee-model';
export {
  ACROSS_MULTICALL_HANDLER_FRAGMENTS,
  acrossMulticallHandlerInterface,
  decodeAcrossMulticallMessage,
  encodeAcrossMulticallMessage,
} from './across/multicall-message';
