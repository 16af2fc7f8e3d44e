/**
 * The docs a machine can check against the code: the configuration reference (generated, and
 * complete both ways), the README's layout (every project) and each app's README (every folder of
 * its src/).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIGURATION_DOC, configurationMarkdown } from './configuration';
import { scanVariableReads } from './env-scan';
import { SECTIONS } from './variables';

const ROOT = join(__dirname, '..', '..');
/** the operating system's, read by the scripts that start child processes */
const OS_VARIABLES = new Set(['HOME', 'PATH']);
const generic = (name: string): string => name.replace(/<[A-Z*]+>/g, '<*>');
const documented = SECTIONS.flatMap((s) => s.variables.flatMap((v) => v.names.map((name) => ({ name: generic(name), variable: v }))));
const folders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

describe('docs/configuration.md', () => {
  it('is what npm run docs:gen writes from tools/docs/variables.ts', () => {
    expect(readFileSync(CONFIGURATION_DOC, 'utf8')).toBe(configurationMarkdown());
  });

  it('documents every variable the code reads', () => {
    const names = new Set(documented.map((d) => d.name));
    const undocumented = scanVariableReads(ROOT, { tests: true })
      .filter((r) => !OS_VARIABLES.has(r.name) && !names.has(generic(r.name)))
      .map((r) => `${r.name} (${r.files.join(', ')})`);
    expect(undocumented).toEqual([]);
  });

  it('documents only variables something reads', () => {
    const read = new Set(scanVariableReads(ROOT, { tests: true }).map((r) => generic(r.name)));
    const unread = documented.filter((d) => !d.variable.library && !read.has(d.name)).map((d) => d.name);
    expect(unread).toEqual([]);
  });

  it("names the app that reads a variable only one app's code reads", () => {
    const wrong: string[] = [];
    for (const r of scanVariableReads(ROOT)) {
      const apps = new Set(r.files.map((f) => /^apps\/([^/]+)\//.exec(f)?.[1]));
      const [app] = [...apps];
      if (apps.size !== 1 || app === undefined) continue;
      const entry = documented.find((d) => d.name === generic(r.name));
      if (entry && !entry.variable.usedBy.includes(app)) wrong.push(`${r.name}: read by ${app}, documented for "${entry.variable.usedBy}"`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('README.md', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const layout = /## Layout\n+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

  it('has a layout block', () => {
    expect(layout.length).toBeGreaterThan(0);
  });

  it.each(['apps', 'libs'])('layout names every project under %s/', (top) => {
    const line = new RegExp(String.raw`(^|\n)${top}/[\s\S]*?(?=\n\S|$)`).exec(layout)?.[0] ?? '';
    const missing = folders(join(ROOT, top)).filter((p) => !new RegExp(String.raw`\b${p}\b`).test(line));
    expect(missing).toEqual([]);
  });
});

describe("each app's README", () => {
  const apps = folders(join(ROOT, 'apps'));

  it.each(apps)('apps/%s has a README naming every folder of its src/', (app) => {
    const path = join(ROOT, 'apps', app, 'README.md');
    expect(existsSync(path)).toBe(true);
    const text = readFileSync(path, 'utf8');
    const missing = folders(join(ROOT, 'apps', app, 'src')).filter((d) => !text.includes(`${d}/`));
    expect(missing).toEqual([]);
  });
});
