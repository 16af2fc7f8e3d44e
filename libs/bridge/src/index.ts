export * from './provider';
export * from './devnet-config';
export { DEVNET_BRIDGE_NAME, DevnetBridgeProvider, type DevnetBridgeProviderOptions, type DepositRecord, rescale } from './devnet-provider';
export { FILLER_MODES, Filler, type FillPlan, type FillerMode, type FillerOptions, type FillerRuntimeOptions, type FillFailure, type SwapRecord, isFillerMode } from './filler/filler';
export { type DestinationSwap, type DestinationSwapRequest, type DestinationSwapper, type QuoteCalls, QuoteServiceSwapper, type QuoteServiceSwapperOptions } from './filler/destination-swapper';
export { type NatsQuoteCalls, natsQuoteCalls } from './filler/nats-quote-calls';
export { type FillerLog, type FillerLogLevel, jsonFillerLog } from './filler/log';
export { type FillerConfig, loadFillerConfig } from './filler/config';
