require('../../../../tools/register.js');
module.exports = async function globalTeardown() {
  const handle = globalThis.__tokensvcDevnet;
  if (!handle) return;
  globalThis.__tokensvcDevnet = undefined;
  await handle.stop();
};
