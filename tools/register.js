// Runs TypeScript sources directly: SWC transpiles (with decorator metadata, which
// NestJS DI needs) and tsconfig "paths" resolve the @tokensvc/* libs.
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || require('path').join(__dirname, '..', 'tsconfig.json');
require('@swc-node/register');
