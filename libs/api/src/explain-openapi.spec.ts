import { endpointList } from './endpoints';
import { openApiDocument, type DocumentSchema as JsonSchema, type OpenApiDocument } from './openapi';

/** Issue 23 item 1 in the OpenAPI document: explain on both trading reads, pinnedBlocks and Explain in the answers. */
describe('OpenAPI: pinned blocks and explain', () => {
  let doc: OpenApiDocument;
  beforeAll(async () => {
    doc = await openApiDocument(endpointList(), { title: 't', version: '3.0', description: 'd' });
  });
  const schema = (name: string): JsonSchema => doc.components.schemas[name]!;

  it.each(['/v2/portal', '/v2/portal/estimate'])('%s takes an optional boolean explain, described', (path) => {
    const p = doc.paths[path]!['get']!.parameters.find((x) => x.name === 'explain')!;
    expect(p.required).toBeFalsy();
    expect(p.schema).toMatchObject({ type: 'boolean', default: false });
    expect(p.description).toMatch(/best single path/);
  });

  it('the answers carry context.pinnedBlocks and explain', () => {
    expect(schema('PinnedBlock').required).toEqual(['network', 'blockNumber', 'blockHash']);
    expect(JSON.stringify(schema('OrderContext').properties!['pinnedBlocks'])).toContain('PinnedBlock');
    expect(JSON.stringify(schema('Order').properties!['explain'])).toContain('Explain');
    expect(JSON.stringify(schema('Estimate'))).toContain('PinnedBlock');
    expect(JSON.stringify(schema('Estimate').properties!['explain'])).toContain('Explain');
    expect(Object.keys(schema('ExplainHop').properties!)).toEqual(
      expect.arrayContaining([
        'pool',
        'protocol',
        'platform',
        'feeTier',
        'amountIn',
        'amountOut',
        'weightBps',
        'priceImpactPercentage',
        'gas',
        'next',
      ]),
    );
    expect(Object.keys(schema('Explain').properties!)).toEqual(expect.arrayContaining(['route', 'bestSinglePath', 'bestDirectPool']));
  });
});
