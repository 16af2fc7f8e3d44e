/**
 * One trace per request across the apps (issue 20): the indexer, token-data, quote and the gateway
 * as processes with the OTLP exporter switched on by OTEL_EXPORTER_OTLP_ENDPOINT, sending to a
 * receiver on loopback. GET /v2/tokens is one trace from the gateway's HTTP span through its NATS
 * client span to token-data's handler span and its Postgres query spans; GET /v2/portal/estimate
 * goes through quote to JSON-RPC spans, GET /v2/portal through quote to the order's INSERT. token-data's log lines for the request carry the gateway's
 * request id and the trace id.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import {
  createTestDatabaseUrl,
  freePort,
  freePortRange,
  INFRA,
  startApp,
  stopProcess,
  testDevnet,
  waitForHttp,
  type AppName,
  type AppProcess,
  type PlatformEnv,
} from '@tokensvc/testing';

interface Span {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

/** An OTLP/HTTP JSON receiver: POST /v1/traces, spans flattened with their service name. */
async function otlpReceiver(): Promise<{ url: string; spans: Span[]; server: Server }> {
  const spans: Span[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: any[] };
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a: any) => a.key === 'service.name')?.value?.stringValue as string;
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? []) {
            const attributes = Object.fromEntries((s.attributes ?? []).map((a: any) => [a.key, Object.values(a.value ?? {})[0]]));
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              kind: s.kind,
              attributes,
            });
          }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server };
}

describe('traces across the gateway, NATS and the services (OTLP)', () => {
  const dbUrl = createTestDatabaseUrl('tracing');
  const procs: AppProcess[] = [];
  const logs: Array<{ app: AppName; line: string }> = [];
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let base = '';
  let apiKey = '';
  let healthPortBase = 0;
  const failWithLogs = (e: unknown): never => {
    throw new Error(
      `${(e as Error).message}\n${logs
        .slice(-40)
        .map((l) => `[${l.app}] ${l.line}`)
        .join('\n')}`,
    );
  };

  beforeAll(async () => {
    receiver = await otlpReceiver();
    await migrate(dbUrl);
    const pool = new Pool({ connectionString: dbUrl, max: 1 });
    apiKey = (await new ApiKeysRepository(pool).issue({ tier: 'paid', label: 'tracing e2e' })).key;
    await pool.end();
    const devnet = testDevnet();
    const env: PlatformEnv = {
      databaseUrl: dbUrl,
      natsUrl: INFRA.nats,
      redisUrl: INFRA.redis,
      rpcUrls: { ethereum: devnet.rpcUrls.ethereum! },
      manifestPath: devnet.manifestPath,
      gatewayPort: await freePort(),
      healthPortBase: await freePortRange(5),
      natsRequestTimeoutMs: 10_000,
      logLevel: 'warn',
      extraEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '200' },
    };
    base = `http://127.0.0.1:${env.gatewayPort}`;
    const levels: Partial<Record<AppName, string>> = { 'token-data': 'debug', gateway: 'info', quote: 'info' };
    for (const app of ['indexer', 'token-data', 'quote', 'gateway'] as const)
      procs.push(startApp(app, { ...env, logLevel: levels[app] ?? 'warn' }, (name, line) => logs.push({ app: name, line })));
    // the gateway up, and token-data in its queue group (a replica joins once it is ready)
    healthPortBase = env.healthPortBase!;
    await waitForHttp(`${base}/health`, 90_000).catch(failWithLogs);
    await waitForHttp(`http://127.0.0.1:${healthPortBase + 1}/health/ready`, 90_000).catch(failWithLogs);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => stopProcess(p)));
    await new Promise((r) => receiver?.server.close(r));
    await dropDatabase(dbUrl);
  });

  const traceOf = (requestId: string): Span[] => {
    const root = receiver.spans.find((s) => s.service === 'gateway' && s.attributes['http.request_id'] === requestId);
    return root ? receiver.spans.filter((s) => s.traceId === root.traceId) : [];
  };
  const waitForTrace = async (requestId: string, complete: (spans: Span[]) => boolean): Promise<Span[]> => {
    const until = Date.now() + 15_000;
    while (!complete(traceOf(requestId)) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    return traceOf(requestId);
  };
  /** the span's ancestors' names, nearest first, within its trace */
  const ancestry = (spans: Span[], span: Span): string[] => {
    const out: string[] = [];
    for (let p = spans.find((s) => s.spanId === span.parentSpanId); p; p = spans.find((s) => s.spanId === p!.parentSpanId))
      out.push(`${p.service}:${p.name}`);
    return out;
  };

  it('GET /v2/tokens: gateway -> NATS -> token-data -> Postgres is one trace with the right parents; token-data logs the request id and trace id', async () => {
    const res = await fetch(`${base}/v2/tokens?limit=5`, {
      headers: { authorization: `Bearer ${apiKey}`, 'x-request-id': 'trace-e2e-tokens' },
    });
    expect(res.status).toBe(200);
    const spans = await waitForTrace('trace-e2e-tokens', (t) =>
      t.some((s) => s.service === 'token-data' && s.attributes['db.system.name'] !== undefined),
    );
    const root = spans.find((s) => s.parentSpanId === '')!;
    expect(root).toMatchObject({
      service: 'gateway',
      name: 'GET /v2/tokens',
      attributes: { 'http.route': '/v2/tokens', 'http.response.status_code': 200 },
    });
    const send = spans.find((s) => s.service === 'gateway' && s.name.startsWith('send '))!;
    const handler = spans.find((s) => s.service === 'token-data' && s.name.startsWith('process '))!;
    const queries = spans.filter((s) => s.service === 'token-data' && s.attributes['db.system.name'] === 'postgresql');
    expect(send.parentSpanId).toBe(root.spanId);
    expect(handler.parentSpanId).toBe(send.spanId);
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries)
      expect(ancestry(spans, q)).toEqual(
        expect.arrayContaining([`token-data:${handler.name}`, `gateway:${send.name}`, 'gateway:GET /v2/tokens']),
      );
    // no secrets in what is exported: no query parameter values, no URL with credentials
    expect(JSON.stringify(spans)).not.toContain(new URL(dbUrl).password || 'no password in the test URL');

    const lines = logs
      .filter((l) => l.app === 'token-data' && l.line.includes('"requestId":"trace-e2e-tokens"'))
      .map((l) => JSON.parse(l.line) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatchObject({ service: 'token-data', traceId: root.traceId });
    const access = logs.find((l) => l.app === 'gateway' && l.line.includes('"msg":"request"') && l.line.includes('trace-e2e-tokens'));
    expect(JSON.parse(access!.line)).toMatchObject({ requestId: 'trace-e2e-tokens', traceId: root.traceId });
  });

  it('GET /v2/portal/estimate and GET /v2/portal: gateway -> NATS -> quote -> JSON-RPC / Postgres in one trace each', async () => {
    type Net = { network: string; weth: string; tokens: Array<{ symbol: string; address: string }> };
    const eth = (JSON.parse(readFileSync(testDevnet().manifestPath, 'utf8')) as { networks: Net[] }).networks.find(
      (n) => n.network === 'ethereum',
    )!;
    const usdc = eth.tokens.find((t) => t.symbol === 'USDC')!.address.toLowerCase();
    const query = `inputToken=ethereum:${usdc}&inputAmount=1000000000&outputToken=ethereum:${eth.weth.toLowerCase()}`;
    // quote joins its queue group once its graph is loaded; it learns pools as the indexer writes them
    await waitForHttp(`http://127.0.0.1:${healthPortBase + 3}/health/ready`, 150_000).catch(failWithLogs);
    const until = Date.now() + 120_000;
    let n = 0;
    let r: Response;
    do {
      if (n) await new Promise((ok) => setTimeout(ok, 2000));
      r = await fetch(`${base}/v2/portal/estimate?${query}`, { headers: { 'x-request-id': `trace-e2e-estimate-${++n}` } });
    } while (r.status !== 200 && Date.now() < until);
    if (r.status !== 200)
      throw new Error(
        `estimate answered ${r.status} after ${n} tries: ${await r.text()}\n${logs
          .filter((l) => l.app !== 'token-data')
          .slice(-30)
          .map((l) => l.line)
          .join('\n')}`,
      );
    const sender = `0x${'11'.repeat(20)}`;
    const portal = await fetch(`${base}/v2/portal?sender=${sender}&${query}&slippageTolerancePercentage=1&validate=false`, {
      headers: { 'x-request-id': 'trace-e2e-portal' },
    });
    expect(portal.status).toBe(200);

    // the estimate simulates (JSON-RPC calls); the order is stored (a pg INSERT); gas price and
    // block may come from quote's cache, so the order's own JSON-RPC calls are not required
    const cases = [
      { id: `trace-e2e-estimate-${n}`, route: '/v2/portal/estimate', child: (s: Span) => s.attributes['rpc.system'] === 'jsonrpc' },
      { id: 'trace-e2e-portal', route: '/v2/portal', child: (s: Span) => s.attributes['db.system.name'] === 'postgresql' },
    ];
    for (const { id, route, child } of cases) {
      const spans = await waitForTrace(id, (t) => t.some((s) => s.service === 'quote' && child(s)));
      const root = spans.find((s) => s.parentSpanId === '')!;
      expect(root).toMatchObject({ service: 'gateway', name: `GET ${route}` });
      const handler = spans.find((s) => s.service === 'quote' && s.name.startsWith('process '))!;
      expect(ancestry(spans, handler)).toEqual([expect.stringMatching(/^gateway:send /), `gateway:GET ${route}`]);
      const below = spans.filter((s) => s.service === 'quote' && s !== handler);
      expect(below.filter(child).length).toBeGreaterThan(0);
      for (const s of below) expect(ancestry(spans, s)).toContain(`quote:${handler.name}`);
      process.stdout.write(
        `[tracing] ${route}: ${spans.length} spans: ${[...new Set(spans.map((s) => `${s.service}:${s.name}`))].join(', ')}\n`,
      );
    }
    // it waits for the indexer to feed the quote service's graph (as the platform e2e does)
  }, 300_000);
});
