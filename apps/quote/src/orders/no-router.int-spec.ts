/**
 * A network served without a Router (issue 18): quote starts, serves the networks that have one,
 * and answers every order, estimate and approval on the other with a 400 (BAD_REQUEST over NATS,
 * which the gateway maps to 400 invalid_parameter) naming the network, the deploy command and the
 * variable to set. Through the real NATS handlers (QuoteController, handleRpc), on the shared test
 * devnet's ethereum (Router from the manifest) and a private anvil with optimism's chain id.
 */
import { RpcException } from '@nestjs/microservices';
import { JsonRpcClient } from '@tokensvc/chain';
import {
  type AnvilProcess,
  TEST_ACCOUNTS,
  manifestToken,
  networkManifest,
  readManifest,
  startAnvil,
  relayerKeyEnv,
} from '@tokensvc/devnet';
import { ErrorCode, type RpcErrorPayload } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl, freePortRange, testDevnet } from '@tokensvc/testing';
import { dirname } from 'node:path';
import { ChainClients } from '../chain/chain-clients';
import { networksWithoutRouter, routerCodeProblems } from '../chain/router-code';
import { routerMissingMessage } from '../config/quote-config';
import { TestPoolEvents } from '../testing/pool-events';
import { startQuoteHarness, type QuoteHarness } from '../testing/quote-harness';
import { seedReadModels } from '../testing/read-models';
import { QuoteController } from './quote.controller';

const OP_WETH = 'optimism:0x4200000000000000000000000000000000000006';
const OP_USDC = 'optimism:0x0b2c639c533813f4aa9d7837caf62653d097ff85';

describe('a network without a Router: refused with what to do, the others served', () => {
  let anvil: AnvilProcess;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let harness: QuoteHarness;
  let controller: QuoteController;
  let ethereumRouter: string;
  let ethereumUsdc: string;
  const sender = TEST_ACCOUNTS[3]!.address;

  beforeAll(async () => {
    const devnet = testDevnet();
    const net = networkManifest(readManifest(dirname(devnet.manifestPath))!, 'ethereum');
    ethereumRouter = net.contracts.router.toLowerCase();
    ethereumUsdc = `ethereum:${manifestToken(net, 'USDC').address.toLowerCase()}`;
    anvil = await startAnvil({ host: '127.0.0.1', port: await freePortRange(1), chainId: 10 });
    databaseUrl = createTestDatabaseUrl('quote_no_router');
    await migrate(databaseUrl);
    await seedReadModels(databaseUrl, new JsonRpcClient(devnet.rpcUrls.ethereum!), net);
    events = await TestPoolEvents.create(INFRA.nats, 'no-router');
    harness = await startQuoteHarness({
      databaseUrl,
      natsUrl: INFRA.nats,
      rpcUrl: devnet.rpcUrls.ethereum!,
      manifestPath: devnet.manifestPath,
      relayerKeys: relayerKeyEnv(devnet.manifestPath),
      stream: events.stream,
      prefix: events.prefix,
      // optimism: an RPC URL and its WETH, no ROUTER_ADDRESS_OPTIMISM, and not in the devnet manifest
      env: { NETWORKS: 'ethereum,optimism', RPC_URL_OPTIMISM: anvil.rpcUrl, WRAPPED_NATIVE_OPTIMISM: OP_WETH.split(':')[1]! },
    });
    controller = harness.app.get(QuoteController);
  }, 180_000);

  afterAll(async () => {
    await harness?.close();
    await events?.dispose();
    await anvil?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  /** The error payload a handler answers over NATS. */
  const refusal = async (reply: Promise<unknown>): Promise<RpcErrorPayload> => {
    const err = await reply.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RpcException);
    return (err as RpcException).getError() as RpcErrorPayload;
  };

  it('starts with optimism configured without a Router, and ethereum with the manifest one', () => {
    expect(harness.config.deployments.map((d) => [d.network, d.router])).toEqual([
      ['ethereum', ethereumRouter],
      ['optimism', undefined],
    ]);
    expect(networksWithoutRouter(harness.config.deployments)).toEqual(['optimism']);
  });

  it('answers estimates, approvals, orders and multi-input orders on optimism with a 400 naming the network, the deploy command and the variable', async () => {
    const expected = { code: ErrorCode.ERROR_CODE_BAD_REQUEST, message: routerMissingMessage('optimism') };
    expect(expected.message).toContain('npm run router -- deploy --network optimism');
    expect(expected.message).toContain('ROUTER_ADDRESS_OPTIMISM');
    const single = { inputToken: OP_WETH, inputAmount: '1000000000000000', outputToken: OP_USDC };
    expect(await refusal(controller.estimate(single))).toEqual(expected);
    expect(await refusal(controller.approval({ ...single, sender }))).toEqual(expected);
    expect(await refusal(controller.buildOrder({ ...single, sender }))).toEqual(expected);
    expect(
      await refusal(controller.buildOrder({ ...single, sender, inputToken: 'optimism:0x0000000000000000000000000000000000000000' })),
    ).toEqual(expected);
    expect(
      await refusal(
        controller.buildMultiOrder({
          sender,
          inputTokens: [OP_WETH, 'optimism:0x94b008aa00579c1307b0ef2c499ad98a8ce58e58'],
          inputAmounts: ['1000', '2000'],
          outputToken: OP_USDC,
        }),
      ),
    ).toEqual(expected);
  });

  it('still serves ethereum: an approval names its Router as the spender', async () => {
    const reply = (await controller.approval({ sender, inputToken: ethereumUsdc, inputAmount: '1000000' })) as {
      context: { spender: string; network: string };
    };
    expect(reply.context).toMatchObject({ network: 'ethereum', spender: ethereumRouter });
  });

  it('at start, a configured Router without code is a problem that says what to do; a deployed one is fine', async () => {
    const chains = new ChainClients(harness.config.deployments, 0);
    expect(await routerCodeProblems(harness.config.deployments, chains)).toEqual([]);
    const nowhere = '0x00000000000000000000000000000000000b0b0b';
    const optimism = { ...harness.config.deployments[1]!, router: nowhere };
    expect(await routerCodeProblems([harness.config.deployments[0]!, optimism], chains)).toEqual([
      `the Router ${nowhere} configured for optimism (ROUTER_ADDRESS_OPTIMISM, else the devnet manifest) has no code on chain id 10: ` +
        'deploy it with `npm run router -- deploy --network optimism` and set ROUTER_ADDRESS_OPTIMISM to the address it prints (the same on every network)',
    ]);
  });
});
