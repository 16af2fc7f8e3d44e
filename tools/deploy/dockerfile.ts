/**
 * The Dockerfile, read the way `docker build` would use it, without Docker: which build targets it
 * can build (APP build arg, compiled by tools/build/build-app.ts in a build stage), whether every
 * file the build needs is COPYed from the context and not dropped by .dockerignore, whether the
 * image starts the compiled main.js, and whether it carries a HEALTHCHECK.
 */
import { posix } from 'node:path';
import { problem, type Problem, type SourceFile } from './validate';

export interface Instruction {
  readonly line: number;
  readonly op: string;
  readonly args: string;
}

/** Every instruction, continuation lines joined, comments dropped. */
export function instructions(text: string): Instruction[] {
  const all: Instruction[] = [];
  let buf = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd();
    if (buf === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) return;
    if (buf !== '' && line.trimStart().startsWith('#')) return; // comments may sit inside a continuation
    if (buf === '') start = i + 1;
    buf += line.endsWith('\\') ? `${line.slice(0, -1)} ` : line;
    if (line.endsWith('\\')) return;
    const m = /^\s*(\S+)(?:\s(.*))?$/s.exec(buf);
    if (m) all.push({ line: start, op: (m[1] ?? '').toUpperCase(), args: (m[2] ?? '').trim() });
    buf = '';
  });
  return all;
}

/** Instructions of the last stage (the image that runs). */
export function finalStage(text: string): Instruction[] {
  const all = instructions(text);
  const from = all.map((x) => x.op).lastIndexOf('FROM');
  return from < 0 ? [] : all.slice(from);
}

/** .dockerignore semantics: glob per line (`*`, `?`, `**`), `!` re-includes, the last match wins, a match on a directory covers its contents. */
export function isIgnored(path: string, dockerignore: string): boolean {
  let ignored = false;
  for (const raw of dockerignore.split('\n').map((l) => l.trim())) {
    if (raw === '' || raw.startsWith('#')) continue;
    const negate = raw.startsWith('!');
    const re = globToRegExp(posix.normalize(negate ? raw.slice(1) : raw).replace(/^\/+|(?<!\/)\/+$/g, ''));
    const segments = path.split('/');
    if (segments.some((_, i) => re.test(segments.slice(0, i + 1).join('/')))) ignored = !negate;
  }
  return ignored;
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      i += glob[i + 2] === '/' ? 2 : 1;
      re += glob[i] === '/' ? '(?:.*/)?' : '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Sources of `COPY` / `ADD` from the build context (not `--from=` another stage). */
function contextSources(all: readonly Instruction[]): string[] {
  return all
    .filter((x) => (x.op === 'COPY' || x.op === 'ADD') && !/(^|\s)--from=/.test(x.args))
    .flatMap((x) => {
      const words = x.args.startsWith('[') ? (JSON.parse(x.args) as string[]) : x.args.split(/\s+/).filter((w) => !w.startsWith('--'));
      return words.slice(0, -1).map((s) => posix.normalize(s).replace(/(?<!\/)\/+$/, ''));
    });
}

const covers = (source: string, path: string): boolean =>
  source === '.' || source === path || path.startsWith(`${source}/`) || (source.includes('*') && globToRegExp(source).test(path));

export interface DockerfileInput {
  readonly dockerfile: SourceFile;
  readonly dockerignore: SourceFile | undefined;
  /** Whether a path (relative to the repo root) exists in the build context. */
  readonly exists: (path: string) => boolean;
}

export interface DockerfileReport {
  readonly problems: Problem[];
  /** APP values that would build and start. */
  readonly buildable: ReadonlySet<string>;
  readonly hasHealthcheck: boolean;
}

/** Files every build reads, whatever APP is: the lock file, the compiler and the tsconfig it reads. */
const BUILD_FILES = [
  'package.json',
  'package-lock.json',
  'tools/register.js',
  'tools/build/build-app.ts',
  'tsconfig.json',
  'tsconfig.base.json',
];

/** `targets`: build target name -> its entry file (tools/build/build-app.ts BUILD_TARGETS). */
export function checkDockerfile(input: DockerfileInput, targets: Readonly<Record<string, string>>): DockerfileReport {
  const problems: Problem[] = [];
  const file = input.dockerfile.path;
  const all = instructions(input.dockerfile.text);
  const stage = finalStage(input.dockerfile.text);
  const sources = contextSources(all);
  /** Why the image would lack `path`, or undefined when it is there. */
  const missing = (path: string): string | undefined => {
    if (!input.exists(path)) return 'does not exist in the repo';
    if (input.dockerignore && isIgnored(path, input.dockerignore.text)) return `is excluded by ${input.dockerignore.path}`;
    if (!sources.some((s) => covers(s, path))) return 'is not COPYed into the build';
    return undefined;
  };

  if (stage.length === 0) problems.push(problem(file, '(file)', 'no FROM instruction'));
  if (!all.some((x) => x.op === 'ARG' && /^APP(=|\s|$)/.test(x.args)))
    problems.push(problem(file, 'build', 'does not declare ARG APP: the image cannot know which app to build'));
  if (!all.some((x) => x.op === 'RUN' && /tools\/build\/build-app\.ts\s+"?\$\{?APP\}?/.test(x.args)))
    problems.push(problem(file, 'build', 'no RUN compiles the app (tools/build/build-app.ts "$APP")'));
  const start = [...stage].reverse().find((x) => x.op === 'CMD' || x.op === 'ENTRYPOINT');
  if (!start || !/\bmain\.js\b/.test(start.args))
    problems.push(problem(file, start ? `line ${start.line}` : 'final stage', 'CMD/ENTRYPOINT must start the compiled main.js'));
  for (const f of BUILD_FILES) {
    const why = missing(f);
    if (why) problems.push(problem(file, 'build', `${f} ${why}`));
  }

  const hc = [...stage].reverse().find((x) => x.op === 'HEALTHCHECK');
  const hasHealthcheck = hc !== undefined && !/^NONE\b/i.test(hc.args);
  // A script the HEALTHCHECK runs must be in the image too (the check would fail forever otherwise).
  for (const script of hc?.args.match(/(?<![\w./-])[\w./-]+\.js\b/g) ?? []) {
    const why = missing(posix.normalize(script));
    if (why) problems.push(problem(file, `line ${hc?.line ?? 0}`, `HEALTHCHECK runs ${script}, which ${why}`));
  }

  const buildable = new Set<string>();
  for (const [app, entry] of Object.entries(targets)) {
    const why = missing(entry);
    if (why) problems.push(problem(file, `APP=${app}`, `${entry} ${why}`));
    else buildable.add(app);
  }
  return { problems, buildable, hasHealthcheck };
}
