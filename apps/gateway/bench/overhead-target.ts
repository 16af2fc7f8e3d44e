/**
 * The processes of `bench/gateway.bench.ts` (run apart from the load generator's event loop):
 *   overhead-target.ts gateway on|off   a gateway on a free loopback port, auth + limits + validation on or off
 *   overhead-target.ts responder        answers token-data.networks.list.v1 on NATS
 * It lives in the gateway project because it builds the gateway with options main.ts never sets.
 * Config from the usual env (DATABASE_URL, REDIS_URL, NATS_URL). Prints "ready <port>" when up.
 */
import 'reflect-metadata';
import { connect, JSONCodec } from 'nats';
import { TIER_POLICY } from '@tokensvc/api';
import { loadGatewayConfig, natsConnectOptions } from '@tokensvc/config';
import { ListNetworksReply, RPC } from '@tokensvc/messages';
import { createGateway } from '../src/bootstrap';

/** Limits far above the load, so every request pays the full limiter and quota path and none is refused. */
const BENCH_POLICY = { ...TIER_POLICY, paid: { ...TIER_POLICY.paid, perMinute: { data: 1e9, trading: 1e9 }, monthlyCalls: 1e12 } };

async function gateway(enforcement: boolean): Promise<void> {
  const config = loadGatewayConfig();
  const app = await createGateway(config, { enforcement, tierPolicy: BENCH_POLICY, redisPrefix: `tsvc-bench:${process.pid}` });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  process.stdout.write(`ready ${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

async function responder(): Promise<void> {
  const json = JSONCodec<{ id: string }>();
  const nc = await connect(natsConnectOptions(loadGatewayConfig().natsUrl));
  const reply = RPC.listNetworks.reply.toJSON(ListNetworksReply.fromJSON({ networks: ['ethereum', 'arbitrum', 'base'] }));
  const sub = nc.subscribe(RPC.listNetworks.subject, { queue: RPC.listNetworks.service });
  process.stdout.write('ready 0\n');
  process.once('SIGTERM', () => void nc.drain().then(() => process.exit(0)));
  for await (const m of sub) m.respond(json.encode({ id: json.decode(m.data).id, response: reply, isDisposed: true } as { id: string }));
}

const [role, mode] = process.argv.slice(2);
(role === 'responder' ? responder() : gateway(mode === 'on')).catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
