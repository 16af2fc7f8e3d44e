// Jest global setup for the integration and e2e tiers: checks Postgres, Redis and NATS are
// reachable and starts one shared devnet (loaded from the saved state when there is one).
// Tests find it through TEST_DEVNET_* env vars, which Jest passes on to its workers.
// TypeScript sources load through SWC (tools/register.js) with the workspace tsconfig paths.
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || require('path').join(__dirname, '..', '..', '..', '..', 'tsconfig.json');
// A runtime hook (as `node -r` loads it), not a code dependency: the path is built so the
// project graph does not count the tools project as one of this library's dependencies.
require(require('path').join(__dirname, '..', '..', '..', '..', 'tools', 'register.js'));
// Jest compiles this setup with its own transform, which ignores tsconfig paths: map @tokensvc/* here.
const { compilerOptions } = require('../../../../tsconfig.base.json');
require('tsconfig-paths').register({ baseUrl: require('path').join(__dirname, '..', '..', '..', '..'), paths: compilerOptions.paths });
module.exports = async function globalSetup() {
  // Both tiers name this file; the devnet is started once per Jest run.
  if (globalThis.__tokensvcDevnet) return;
  const { prepareTestInfrastructure } = require('../infra.ts');
  globalThis.__tokensvcDevnet = await prepareTestInfrastructure();
};
