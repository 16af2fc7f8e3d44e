import { ERROR_CODES } from './models/common';
import { ENDPOINTS, endpointList } from './endpoints';
import { PAID_METRIC_FIELDS, PUBLIC_METRIC_FIELDS } from './models/record-fields';
import { openApiDocument, type DocumentSchema as JsonSchema, type OpenApiDocument, type OpenApiOperation } from './openapi';

/** The document generated from the declarations matches the spec's interface. */
describe('OpenAPI document of the public interface', () => {
  let doc: OpenApiDocument;
  beforeAll(async () => {
    doc = await openApiDocument(endpointList(), { title: 't', version: '3.0', description: 'd' });
  });
  const op = (method: string, path: string): OpenApiOperation => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`${method} ${path} is not documented`);
    return found;
  };
  const param = (method: string, path: string, name: string): JsonSchema =>
    op(method, path).parameters.find((p) => p.name === name)!.schema;
  const schema = (name: string): JsonSchema => doc.components.schemas[name]!;

  it('documents every endpoint of the spec with its method', () => {
    const spec = [
      'get /v2/tokens',
      'get /v1/networks',
      'get /v2/platforms',
      'get /v2/tokens/history',
      'get /v3/tokens/transactions',
      'get /v3/tokens/metrics',
      'get /v2/tokens/holders',
      'get /v2/account',
      'get /v2/portal',
      'post /v2/portal',
      'get /v2/portal/status',
      'get /v3/portal/status',
      'get /v2/portal/estimate',
      'get /v2/approval',
      'get /v2/approval/cross-chain',
      'get /health',
      // beyond the spec (beta): push delivery of cross-chain status
      'post /v3/portal/webhooks',
      'get /v3/portal/webhooks',
      'delete /v3/portal/webhooks',
      'get /v3/portal/status/stream',
      // beyond the spec: multi-input zaps
      'get /v2/portal/multi',
      'get /v2/portal/multi/estimate',
    ];
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(spec.sort());
    for (const { id, def } of endpointList()) expect(op(def.method.toLowerCase(), def.path).operationId).toBe(id);
  });

  it('declares the `authorization` header scheme and the security of each class', () => {
    expect(doc.components.securitySchemes['authorization']).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'authorization' }),
    );
    expect(op('get', '/v2/tokens').security).toEqual([{ authorization: [] }]);
    expect(op('get', '/v2/tokens/history').security).toEqual([{ authorization: [] }]);
    // Trading: the key is optional.
    expect(op('get', '/v2/portal').security).toEqual([{}, { authorization: [] }]);
    expect(op('get', '/v2/approval').security).toEqual([{}, { authorization: [] }]);
    expect(op('get', '/health').security).toEqual([]);
    expect(op('get', '/v2/tokens/history').responses['403']).toBeDefined();
    expect(op('get', '/v2/tokens').responses['403']).toBeUndefined();
    expect(op('get', '/v3/portal/status').responses['404']).toBeDefined();
  });

  it('declares every status an operation answers: 404 for unknown orders and tokens, 401 for an invalid key on trading', () => {
    for (const [m, p] of [
      ['post', '/v2/portal'],
      ['get', '/v2/portal/status'],
      ['get', '/v2/tokens/history'],
      ['get', '/v3/tokens/transactions'],
      ['get', '/v3/tokens/metrics'],
      ['get', '/v2/tokens/holders'],
    ] as const) {
      expect([m, p, op(m, p).responses['404']?.description]).toEqual([m, p, expect.any(String)]);
    }
    for (const { def } of endpointList().filter((e) => e.def.access === 'trading')) {
      expect([def.path, op(def.method.toLowerCase(), def.path).responses['401']?.description]).toEqual([def.path, expect.any(String)]);
    }
  });

  it('documents the rate-limit headers and retry-after on limited routes', () => {
    const ok = op('get', '/v2/tokens').responses['200']!;
    expect(Object.keys(ok.headers ?? {})).toEqual(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy']);
    expect(Object.keys(op('get', '/v2/portal').responses['429']!.headers ?? {})).toContain('retry-after');
    expect(op('get', '/health').responses['200']!.headers).toBeUndefined();
  });

  it('resolves every $ref', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(20);
    for (const r of refs) {
      const [, kind, name] = /#\/components\/(\w+)\/([^"]+)/.exec(r)!;
      expect((doc.components as unknown as Record<string, Record<string, unknown>>)[kind!]?.[name!]).toBeDefined();
    }
  });

  it('gives the Token record every field of the spec, and the metrics split by tier', () => {
    const token = schema('Token');
    expect(token.required?.sort()).toEqual(
      [
        'key',
        'name',
        'decimals',
        'symbol',
        'address',
        'addresses',
        'platform',
        'network',
        'price',
        'images',
        'updatedAt',
        'createdAt',
        'verifiedAt',
        'tokens',
        'poolAddress',
        'liquidity',
        'metrics',
        'metadata',
        'image',
        'banner',
        'customCmsImageUrl',
        'totalSupply',
        'totalBorrow',
        'circulatingSupply',
        'reserves',
        'pricePerShare',
        'isClaimed',
        'isPortable',
        'block',
        'historyFromBlock',
      ].sort(),
    );
    const metrics = schema('TokenMetrics');
    expect(metrics.required?.sort()).toEqual([...PUBLIC_METRIC_FIELDS].sort());
    expect(Object.keys(metrics.properties!).sort()).toEqual([...PUBLIC_METRIC_FIELDS, ...PAID_METRIC_FIELDS].sort());
    expect(schema('Balance').required).toEqual(expect.arrayContaining(['balance', 'balanceUSD', 'rawBalance', 'key']));
  });

  it('states the limits of the spec on the parameters', () => {
    expect(param('get', '/v2/tokens', 'limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 250, default: 25 });
    expect(param('get', '/v2/tokens', 'maxApy')).toMatchObject({ default: 1e6 });
    expect(param('get', '/v2/tokens', 'sortBy').enum).toHaveLength(14);
    expect(param('get', '/v3/tokens/transactions', 'limit')).toMatchObject({ minimum: 1, maximum: 50, default: 25 });
    expect(param('get', '/v2/tokens/holders', 'limit')).toMatchObject({ minimum: 100, maximum: 1000, default: 100 });
    expect(param('get', '/v2/portal', 'slippageTolerancePercentage')).toMatchObject({ minimum: 0.1, maximum: 10 });
    expect(param('get', '/v2/portal', 'feePercentage')).toMatchObject({ minimum: 0, maximum: 1 });
    expect(param('get', '/v2/tokens/history', 'resolution')).toMatchObject({ enum: ['15m', '30m', '1h', '4h', '1d'], default: '1d' });
    const networks = op('get', '/v2/account').parameters.find((p) => p.name === 'networks')!;
    expect(networks).toMatchObject({ required: true, explode: true, schema: { type: 'array' } });
    expect(op('get', '/v2/tokens').parameters.find((p) => p.name === 'ids')).toMatchObject({ explode: false });
    expect(op('post', '/v2/portal').parameters.map((p) => [p.name, p.required])).toEqual([
      ['orderId', true],
      ['signature', true],
    ]);
  });

  it('gives the response shapes of the spec', () => {
    const metrics = op('get', '/v3/tokens/metrics').responses['200']!.content!['application/json']!.schema;
    expect(metrics.required).toEqual(['15m', '30m', '1h', '2h', '4h', '8h', '1d', '2d']);
    const order = schema('OrderContext');
    expect(order.required).toEqual(
      expect.arrayContaining(['orderId', 'inputToken', 'minOutputAmount', 'target', 'routeHash', 'isPermit', 'stepsSignedOrder']),
    );
    expect(order.required).not.toContain('feeCosts');
    expect(schema('Order').required).toEqual(['context', 'tx']);
    expect(schema('CrossChainStatus').properties!['status']!.enum).toEqual(['PENDING', 'ONGOING', 'SUCCESS', 'REFUND_STATUS', 'FAILED']);
    expect(schema('Approval').properties!['context']!.required).toEqual(['network', 'shouldApprove', 'canPermit', 'spender']);
    const tx = op('get', '/v3/tokens/transactions').responses['200']!.content!['application/json']!.schema;
    expect(tx.required).toEqual(['pageInfo', 'activities']);
    expect(tx.properties!['pageInfo']!.properties!['endCursor']).toMatchObject({ nullable: true });
    expect(op('get', '/v1/networks').responses['200']!.content!['application/json']!.schema).toMatchObject({
      type: 'array',
      items: { type: 'string' },
    });
    expect(schema('Error').required).toEqual(['statusCode', 'error', 'message', 'code']);
    expect(schema('Error').properties!['code']).toMatchObject({ type: 'string', enum: [...ERROR_CODES] });
    expect(ENDPOINTS.tokenHolders.beta).toBe(true);
    expect(op('get', '/v2/tokens/holders')['x-beta']).toBe(true);
  });

  it('documents push delivery: the event stream and the webhook registration', () => {
    const stream = op('get', '/v3/portal/status/stream');
    expect(stream.responses['200']!.content!['text/event-stream']!.schema).toEqual({ $ref: '#/components/schemas/CrossChainStatusEvent' });
    expect(stream.responses['404']).toBeDefined();
    expect(stream.parameters.map((p) => [p.name, p.required])).toEqual([
      ['orderId', true],
      ['txHash', true],
      ['lastEventId', false],
    ]);
    const hook = op('post', '/v3/portal/webhooks');
    expect(hook.responses['201']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/WebhookRegistration' });
    expect(hook.parameters.map((p) => [p.name, p.required])).toEqual([
      ['orderId', true],
      ['txHash', true],
      ['url', true],
      ['replaces', false],
      ['ownerToken', false],
    ]);
    // Listing and deleting: the caller's own webhooks only.
    expect(op('get', '/v3/portal/webhooks').responses['200']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/WebhookList',
    });
    expect(op('delete', '/v3/portal/webhooks').parameters.map((p) => [p.name, p.required])).toEqual([
      ['id', true],
      ['ownerToken', false],
    ]);
    expect(Object.keys(op('delete', '/v3/portal/webhooks').responses)).toContain('404');
    expect(Object.keys(hook.responses)).toContain('409');
    expect(hook.security).toEqual([{}, { authorization: [] }]);
    expect(schema('WebhookRegistration').required).toEqual([
      'id',
      'secret',
      'orderId',
      'txHash',
      'url',
      'status',
      'recordedEvents',
      'createdAt',
    ]);
    expect(schema('CrossChainStatusEvent').properties!['record']).toEqual({ $ref: '#/components/schemas/CrossChainStatus' });
    expect(hook['x-beta']).toBe(true);
  });
});
