export * from './artifact';
export { CONTRACTS_ROOT, GENERATED_DIR, SOLIDITY_DIR } from './paths';
export { compileContracts, isUpToDate, type CompileResult } from './build/compile';
export { loadArtifact, type LocalContractName } from './local-artifacts';
export * from './npm-artifacts';
/** Where Multicall3 lives on every real chain; the devnet installs its own build there. */
export { MULTICALL3_ADDRESS } from '@tokensvc/domain';
export * from './router';
export * from './across';
