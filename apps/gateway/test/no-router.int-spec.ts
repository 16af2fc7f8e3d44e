import { type AnvilProcess, startAnvil } from '@tokensvc/devnet';
import {
  type AppProcess,
  createTestDatabaseUrl,
  freePort,
  freePortRange,
  INFRA,
  PrivateNatsServer,
  startApp,
  stopProcess,
  waitForHttp,
} from '@tokensvc/testing';
import { GatewayHarness } from './harness';

jest.setTimeout(120_000);

const WETH = '0x4200000000000000000000000000000000000006';
const USDC = '0x0b2c639c533813f4aa9d7837caf62653d097ff85';
const SENDER = '0x00000000000000000000000000000000000000a1';

/**
 * Issue 18: a network with no Router configured, through the gateway and the real quote app (its
 * process, on a private bus): every trading request on it is a 400 that says what to deploy and
 * what to set; and a configured Router address without code stops quote at start with the same
 * advice. The chain is a private anvil with optimism's chain id.
 */
describe('trading on a network without a Router (gateway + quote app)', () => {
  let nats: PrivateNatsServer;
  let anvil: AnvilProcess;
  let gw: GatewayHarness;
  let quote: AppProcess;
  let key: string;
  let databaseUrl: string;
  const lines: string[] = [];
  const quoteEnv = async (extraEnv: Record<string, string>) => {
    const healthPort = await freePort();
    return {
      healthPort,
      env: {
        databaseUrl,
        natsUrl: nats.url,
        redisUrl: INFRA.redis,
        rpcUrls: { optimism: anvil.rpcUrl },
        gatewayPort: 0,
        healthPortBase: healthPort - 3,
        // no ROUTER_ADDRESS_OPTIMISM and no devnet manifest
        extraEnv: {
          WRAPPED_NATIVE_OPTIMISM: WETH,
          QUOTE_EVENTS_STREAM: `NO_ROUTER_${process.pid}`,
          QUOTE_EVENTS_PREFIX: `no-router-${process.pid}`,
          ...extraEnv,
        },
      },
    };
  };

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    anvil = await startAnvil({ host: '127.0.0.1', port: await freePortRange(1), chainId: 10 });
    databaseUrl = createTestDatabaseUrl('gw_no_router');
    gw = await GatewayHarness.start({
      infra: { databaseUrl, redisUrl: INFRA.redis, natsUrl: nats.url },
      env: { NATS_REQUEST_TIMEOUT_MS: '10000' },
    });
    key = (await gw.issue('paid')).key;
    const { healthPort, env } = await quoteEnv({});
    quote = startApp('quote', env, (_app, line) => lines.push(line));
    await waitForHttp(`http://127.0.0.1:${healthPort}/health/ready`, 90_000).catch((e: unknown) => {
      throw new Error(`${(e as Error).message}\n${lines.join('\n')}`);
    });
  });

  afterAll(async () => {
    if (quote) await stopProcess(quote);
    await gw?.close();
    await anvil?.stop();
    await nats?.dispose();
  });

  it('quote says at start which network has no Router', () => {
    expect(lines.join('\n')).toContain(
      'no Router configured for optimism: its orders, estimates and approvals are refused (400) until ROUTER_ADDRESS_OPTIMISM is set',
    );
  });

  it.each([
    ['estimate', `/v2/portal/estimate?inputToken=optimism:${WETH}&inputAmount=1000000&outputToken=optimism:${USDC}`],
    ['order', `/v2/portal?sender=${SENDER}&inputToken=optimism:${WETH}&inputAmount=1000000&outputToken=optimism:${USDC}`],
    ['approval', `/v2/approval?sender=${SENDER}&inputToken=optimism:${USDC}&inputAmount=1000000`],
    [
      'multi-input order',
      `/v2/portal/multi?sender=${SENDER}&inputTokens=optimism:${WETH},optimism:0x94b008aa00579c1307b0ef2c499ad98a8ce58e58&inputAmounts=1000,2000&outputToken=optimism:${USDC}`,
    ],
  ])('%s on optimism: 400 invalid_parameter naming the deploy command and ROUTER_ADDRESS_OPTIMISM', async (_name, path) => {
    const res = await gw.request(path, { key });
    const body = (await res.json()) as { statusCode: number; code: string; message: string };
    expect({ status: res.status, code: body.code }).toEqual({ status: 400, code: 'invalid_parameter' });
    expect(body.message).toBe(
      'no Router is configured for optimism, so this service cannot build orders, estimates or approvals there: deploy it with `npm run router -- deploy --network optimism` and set ROUTER_ADDRESS_OPTIMISM to the address it prints (the same on every network)',
    );
  });

  it('a configured Router address without code stops quote at start, saying what to do', async () => {
    const nowhere = '0x00000000000000000000000000000000000b0b0b';
    const { env } = await quoteEnv({ ROUTER_ADDRESS_OPTIMISM: nowhere });
    const out: string[] = [];
    const bad = startApp('quote', env, (_app, line) => out.push(line));
    try {
      expect(await bad.exited).toBe(1);
    } finally {
      await stopProcess(bad);
    }
    expect(out.join('\n')).toContain(
      `the Router ${nowhere} configured for optimism (ROUTER_ADDRESS_OPTIMISM, else the devnet manifest) has no code on chain id 10: deploy it with \`npm run router -- deploy --network optimism\` and set ROUTER_ADDRESS_OPTIMISM to the address it prints (the same on every network)`,
    );
  });
});
