import { createTestDatabaseUrl, freePort, INFRA } from '@tokensvc/testing';
import type { GatewayHarness } from './harness';
import { startFuzzGateway } from './param-fuzz';

const USDC = 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const NATIVE = 'ethereum:0x0000000000000000000000000000000000000000';
const SENDER = '0x00000000000000000000000000000000000000a1';

/** explain (issue 23): an optional boolean on GET /v2/portal and /v2/portal/estimate, refused with a 400 unless true or false. */
describe('explain query parameter (gateway validation, quote service absent)', () => {
  let gw: GatewayHarness;
  let key: string;

  beforeAll(async () => {
    ({ gw, key } = await startFuzzGateway(
      {
        databaseUrl: createTestDatabaseUrl('gw_explain_param'),
        redisUrl: INFRA.redis,
        closedNatsUrl: `nats://127.0.0.1:${await freePort()}`,
      },
      { listen: true },
    ));
  });

  afterAll(async () => {
    await gw?.close();
  });

  const paths = {
    estimate: `/v2/portal/estimate?inputToken=${NATIVE}&inputAmount=1000&outputToken=${USDC}`,
    portal: `/v2/portal?sender=${SENDER}&inputToken=${NATIVE}&inputAmount=1000&outputToken=${USDC}`,
  };

  it.each(Object.entries(paths))('%s: explain=maybe is a 400 that names the parameter and its values', async (_name, path) => {
    const res = await gw.request(`${path}&explain=maybe`, { key });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; code: string };
    expect(body.code).toBe('invalid_parameter');
    expect(body.message).toMatch(/explain/);
    expect(body.message).toMatch(/true or false/);
  });

  it.each(Object.entries(paths))(
    '%s: explain=true and false pass validation (forwarded: 503 without a quote service)',
    async (_name, path) => {
      for (const value of ['true', 'false']) expect((await gw.request(`${path}&explain=${value}`, { key })).status).toBe(503);
    },
  );
});
