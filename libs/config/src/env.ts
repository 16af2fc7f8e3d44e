/**
 * Tiny typed readers over an env map. Each app builds its config once at boot from these;
 * nothing else in the code reads process.env. Errors name the variable and what is accepted.
 */
import { redactUrl } from './redact-url';

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

export class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback?: string): string {
    const v = this.env[name];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    this.problems.push(`${name} is required`);
    return '';
  }

  optional(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v === '' ? undefined : v;
  }

  int(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  }

  url(name: string, fallback: string, protocols: string[]): string {
    const v = this.string(name, fallback);
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) this.problems.push(`${name} must use ${protocols.join(' or ')}, got "${u.protocol}"`);
    } catch {
      // never print the user:password a URL may carry
      this.problems.push(`${name} must be a URL (${protocols.join(' or ')}), got "${redactUrl(v)}"`);
    }
    return v;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const v = this.env[name];
    if (v === undefined || v === '') return fallback;
    if (!(allowed as readonly string[]).includes(v)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${v}"`);
      return fallback;
    }
    return v as T;
  }

  done(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}
