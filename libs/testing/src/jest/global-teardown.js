// TypeScript sources load through SWC (tools/register.js) with the workspace tsconfig paths.
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || require('path').join(__dirname, '..', '..', '..', '..', 'tsconfig.json');
// A runtime hook (as `node -r` loads it), not a code dependency: the path is built so the
// project graph does not count the tools project as one of this library's dependencies.
require(require('path').join(__dirname, '..', '..', '..', '..', 'tools', 'register.js'));
module.exports = async function globalTeardown() {
  const handle = globalThis.__tokensvcDevnet;
  if (!handle) return;
  globalThis.__tokensvcDevnet = undefined;
  await handle.stop();
};
