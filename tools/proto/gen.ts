/**
 * Generates libs/messages/src/generated from proto/ with buf + ts-proto (both pinned npm packages).
 *   --check  regenerate into a temp dir and fail if the committed output differs (CI guard).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');
const buf = join(root, 'node_modules', '.bin', 'buf');
const generatedRel = join('libs', 'messages', 'src', 'generated');

function generate(outputBase: string): void {
  execFileSync(buf, ['generate', 'proto', '--template', 'proto/buf.gen.yaml', '--output', outputBase], { cwd: root, stdio: 'inherit' });
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

export function checkGenerated(): string[] {
  const tmp = mkdtempSync(join(tmpdir(), 'proto-check-'));
  try {
    generate(tmp);
    const fresh = join(tmp, generatedRel);
    const committed = join(root, generatedRel);
    const a = listFiles(fresh);
    const b = listFiles(committed);
    const problems: string[] = [];
    for (const f of new Set([...a, ...b])) {
      if (!a.includes(f)) problems.push(`${f}: committed but no longer generated`);
      else if (!b.includes(f)) problems.push(`${f}: generated but not committed`);
      else if (readFileSync(join(fresh, f), 'utf8') !== readFileSync(join(committed, f), 'utf8'))
        problems.push(`${f}: differs from proto/`);
    }
    return problems;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const problems = checkGenerated();
    if (problems.length > 0) {
      console.error(`generated message types are stale; run \`npm run proto:gen\`:\n  ${problems.join('\n  ')}`);
      process.exit(1);
    }
    console.log('proto: generated code is up to date');
  } else {
    execFileSync(buf, ['lint', 'proto'], { cwd: root, stdio: 'inherit' });
    rmSync(join(root, generatedRel), { recursive: true, force: true });
    generate(root);
    console.log(`proto: generated ${generatedRel}`);
  }
}
