/**
 * CPU time per process over a measured window, from /proc/<pid>/stat (Linux): user + system time
 * of the process, summed over the set of pids given (e.g. the Postgres backends of one pool).
 * On a machine shared with other work, CPU per request moves much less than req/s and latency
 * do: it is the figure to compare across runs. Elsewhere (no /proc) every reading is NaN.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Pool } from 'pg';

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  return ticksPerSecond;
}

/** user + system CPU of one process in ms (NaN when it is gone or /proc is missing) */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may hold spaces, in parentheses): state is field 3, utime 14, stime 15
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(rest[11]) + Number(rest[12])) * 1000) / clockTicks();
  } catch {
    return NaN;
  }
}

/** Children of `parent` whose command line matches. */
export function childPids(parent: number, cmdline: RegExp): number[] {
  const out: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const d of entries) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && cmdline.test(readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' '))) out.push(Number(d));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** The server processes of the database's connections with this application_name. */
export async function backendPids(pool: Pool, applicationName: string): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
    [applicationName],
  );
  return rows.map((r) => r.pid);
}

/** A named set of processes whose CPU is read before and after a window. */
export interface CpuProbe {
  readonly name: string;
  readonly pids: () => Promise<number[]> | number[];
}

/** CPU ms per process group over `run()`, summed over the pids seen at the start. */
export async function cpuOver<T>(probes: readonly CpuProbe[], run: () => Promise<T>): Promise<{ result: T; cpu: Record<string, number> }> {
  const pids = await Promise.all(probes.map(async (p) => p.pids()));
  const before = pids.map((ps) => ps.map(cpuMs));
  const result = await run();
  const cpu: Record<string, number> = {};
  probes.forEach((p, i) => {
    cpu[p.name] = pids[i]!.reduce((sum, pid, j) => sum + (cpuMs(pid) - before[i]![j]!), 0);
  });
  return { result, cpu };
}
