/**
 * One cold build per state directory at a time: a second process (another test run, the CLI)
 * waits and then reuses the freshly saved state instead of building it again in parallel.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function withStateLock<T>(stateDir: string, onWait: () => void, fn: () => Promise<T>, timeoutMs = 15 * 60_000): Promise<T> {
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, '.lock');
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let holder = NaN;
      try {
        holder = Number(readFileSync(file, 'utf8'));
      } catch {
        continue; // released between our open and read
      }
      if (!Number.isInteger(holder) || holder === process.pid || !alive(holder)) {
        rmSync(file, { force: true }); // stale: its owner died mid-build
        continue;
      }
      if (!announced) {
        onWait();
        announced = true;
      }
      if (Date.now() > deadline) throw new Error(`devnet state ${stateDir} is locked by pid ${holder} for too long`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(file, { force: true });
  }
}
