import type { LoggerService } from '@nestjs/common';
import type { LogLevel } from '@tokensvc/config';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * Structured JSON logs, one object per line, for every app. Fields passed in `extra` are
 * merged as they are, so callers must never pass secrets (API keys, private keys).
 */
export class JsonLogger implements LoggerService {
  constructor(private readonly service: string, private readonly level: LogLevel = 'info') {}

  private write(level: LogLevel, message: unknown, context?: string, extra?: Record<string, unknown>): void {
    if (ORDER[level] < ORDER[this.level]) return;
    const line: Record<string, unknown> = { time: new Date().toISOString(), level, service: this.service };
    if (context) line['context'] = context;
    if (message instanceof Error) {
      line['msg'] = message.message;
      line['err'] = message.name;
    } else if (typeof message === 'object' && message !== null) Object.assign(line, message);
    else line['msg'] = String(message);
    if (extra) Object.assign(line, extra);
    (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${JSON.stringify(line)}\n`);
  }

  log(message: unknown, context?: string): void {
    this.write('info', message, typeof context === 'string' ? context : undefined);
  }
  info(message: unknown, extra?: Record<string, unknown>): void {
    this.write('info', message, undefined, extra);
  }
  error(message: unknown, traceOrContext?: string, context?: string): void {
    this.write('error', message, context ?? (traceOrContext && !traceOrContext.includes('\n') ? traceOrContext : undefined));
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, typeof context === 'string' ? context : undefined);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, typeof context === 'string' ? context : undefined);
  }
  verbose(message: unknown, context?: string): void {
    this.write('debug', message, typeof context === 'string' ? context : undefined);
  }
}
