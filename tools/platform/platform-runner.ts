/**
 * What `npm start` (the devnet) and `npm run start:real` (real networks) share: the process-wide
 * stop on Ctrl-C or on the first app that exits, the five apps as processes with their warning
 * and error lines on the console, and the wait for the gateway's readiness.
 */
import { APPS, startApp, stopProcess, waitForHttp, type AppProcess, type PlatformEnv } from '@tokensvc/testing';

export interface PlatformRunner {
  readonly apps: Array<Pick<AppProcess, 'child' | 'exited'>>;
  readonly stopping: () => boolean;
  /** stops the apps, then `onStop` (devnet, infra), then exits with `code` */
  shutdown(code: number): Promise<void>;
  /** starts a process whose exit (before shutdown) stops the whole platform */
  watch(name: string, p: Pick<AppProcess, 'child' | 'exited'>): void;
  startApps(env: PlatformEnv): void;
  /** the app's or the Across relayer's console line filter: warnings, errors and non-JSON lines, everything with --verbose */
  print(name: string, line: string): void;
}

export function platformRunner(say: (s: string) => void, verbose: boolean, onStop: () => Promise<void>): PlatformRunner {
  const apps: Array<Pick<AppProcess, 'child' | 'exited'>> = [];
  let stopping = false;
  const runner: PlatformRunner = {
    apps,
    stopping: () => stopping,
    async shutdown(code) {
      if (stopping) return;
      stopping = true;
      say('stopping…');
      await Promise.all(apps.map((a) => stopProcess(a)));
      await onStop();
      say('stopped');
      process.exit(code);
    },
    watch(name, p) {
      void p.exited.then((code) => {
        if (!stopping) {
          say(`${name} exited with code ${code}; stopping the platform (see its log lines above)`);
          void runner.shutdown(1);
        }
      });
      apps.push(p);
    },
    startApps(env) {
      for (const app of APPS)
        runner.watch(
          app,
          startApp(app, env, (name, line) => runner.print(name, line)),
        );
    },
    print(name, line) {
      if (verbose || /"level":"(fatal|error|warn)"/.test(line) || !line.startsWith('{')) process.stdout.write(`[${name}] ${line}\n`);
    },
  };
  process.on('SIGINT', () => void runner.shutdown(0));
  process.on('SIGTERM', () => void runner.shutdown(0));
  return runner;
}

/** Waits until the gateway's /health/ready says every dependency is up. */
export async function waitForGateway(base: string, timeoutMs = 60_000): Promise<void> {
  await waitForHttp(`${base}/health/ready`, timeoutMs, (s, body) => s === 200 && !body.includes('"down"'));
}
