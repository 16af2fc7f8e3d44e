import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { publicOpenApi } from './document';

const ROOT = join(__dirname, '..', '..');

describe('SDK types (libs/sdk/src/generated/schema.d.ts) are what the OpenAPI document generates', () => {
  it('the committed schema.d.ts equals a fresh openapi-typescript run over the document libs/api builds (run `npm run sdk:gen` when it does not)', () => {
    // A process of its own: openapi-typescript loads ES modules that Jest's module system does not.
    const r = spawnSync(process.execPath, ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'tools', 'sdk', 'gen.ts'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect({ status: r.status, out: `${r.stdout}${r.stderr}`.trim() }).toEqual({ status: 0, out: 'sdk: generated types are up to date' });
  });

  it('the document covers every public path the SDK helpers call', async () => {
    const doc = await publicOpenApi();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v2/tokens',
        '/v2/approval',
        '/v2/portal',
        '/v2/portal/status',
        '/v3/portal/status',
        '/v3/portal/status/stream',
      ]),
    );
    expect(Object.keys(doc.paths['/v2/portal']!).sort()).toEqual(['get', 'post']);
  });
});
