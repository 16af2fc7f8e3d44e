export * from './provider';
export * from './devnet-config';
export { DEVNET_BRIDGE_NAME, DevnetBridgeProvider, type DevnetBridgeProviderOptions, type DepositRecord, rescale } from './devnet-provider';
export { FILLER_MODES, Filler, type FillerMode, type FillerOptions, type FillerRuntimeOptions, type FillFailure, isFillerMode } from './filler/filler';
export { type FillerLog, type FillerLogLevel, jsonFillerLog } from './filler/log';
export { type FillerConfig, loadFillerConfig } from './filler/config';
