export * from './contracts';
export * from './errors';
export * from './generated/tokensvc/v1/common';
export * from './generated/tokensvc/v1/catalog';
