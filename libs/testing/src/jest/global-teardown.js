// TypeScript sources load through SWC (tools/register.js) with the workspace tsconfig paths.
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || require('path').join(__dirname, '..', '..', '..', '..', 'tsconfig.json');
require('../../../../tools/register.js');
module.exports = async function globalTeardown() {
  const handle = globalThis.__tokensvcDevnet;
  if (!handle) return;
  globalThis.__tokensvcDevnet = undefined;
  await handle.stop();
};
