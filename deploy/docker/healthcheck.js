// Docker HEALTHCHECK for every app image: asks the app's readiness endpoint, so compose's
// `depends_on: service_healthy` and `docker compose up --wait` mean "ready to serve".
// Plain JS (no SWC) so each check costs one short node start.
// Ports mirror DEFAULT_HEALTH_PORTS in libs/config; tools/deploy/check.ts asserts they agree.
const DEFAULT_HEALTH_PORTS = { 'token-data': 3101, indexer: 3102, quote: 3103, 'status-tracker': 3104 };

function healthPort(env) {
  if (env.APP === 'gateway') return Number(env.PORT || 3000);
  return Number(env.HEALTH_PORT || DEFAULT_HEALTH_PORTS[env.APP]);
}

module.exports = { DEFAULT_HEALTH_PORTS, healthPort };

if (require.main === module) {
  fetch(`http://127.0.0.1:${healthPort(process.env)}/health/ready`, { signal: AbortSignal.timeout(2500) }).then(
    (res) => process.exit(res.ok ? 0 : 1),
    () => process.exit(1),
  );
}
