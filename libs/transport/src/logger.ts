import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '@tokensvc/config';
import { redactFields, scrubSecrets } from './log-redaction';
import { logCorrelation } from './telemetry/request-context';

/**
 * Structured JSON logs, one object per line, for every app: `time` (ISO), `level` (its name),
 * `service`, `msg`, the request id / trace id / span id of the request being handled (see
 * telemetry/request-context.ts) and the caller's fields; errors as `err` with type, message and
 * stack. Secrets are redacted (log-redaction.ts). Warnings and errors go to stderr, the rest to
 * stdout. LOG_LEVEL (libs/config) sets the level.
 *
 * Built on pino directly rather than nestjs-pino: nestjs-pino's value is pino-http's per-request
 * logger for an HTTP app, while four of the five apps are NATS microservices and the gateway
 * already logs its access line itself; the request context here comes from OpenTelemetry's
 * AsyncLocalStorage context (HTTP and NATS alike), which a pino `mixin` reads on every line.
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Logger;

  /** `destination`: where lines go (default: stdout, and stderr for warn and above). */
  constructor(
    readonly service: string,
    level: LogLevel = 'info',
    destination?: DestinationStream,
  ) {
    this.pino = pino(
      {
        level,
        base: { service },
        messageKey: 'msg',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        mixin: () => logCorrelation(),
        serializers: { err: serializeError, error: serializeError },
      },
      destination ??
        pino.multistream(
          [
            { level: 'trace', stream: process.stdout },
            { level: 'warn', stream: process.stderr },
          ],
          { dedupe: true },
        ),
    );
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  /** A line with extra fields (never secrets: they are redacted by name and pattern, but do not rely on it). */
  info(message: unknown, extra?: Record<string, unknown>): void {
    this.write('info', message, extra ? [extra] : []);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /**
   * Nest calls `(message, ...optional, context)`, `error(message, stack, context)` among them;
   * our code passes an object with `msg` and fields, or an Error.
   */
  private write(level: 'debug' | 'info' | 'warn' | 'error' | 'fatal', message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    let msg: string | undefined;
    for (const p of params) {
      if (typeof p === 'string') {
        if (p.includes('\n')) fields['stack'] = scrubSecrets(p);
        else fields['context'] = p;
      } else if (p instanceof Error) fields['err'] = p;
      else if (typeof p === 'object' && p !== null) Object.assign(fields, redactFields(p as Record<string, unknown>));
    }
    if (message instanceof Error) {
      fields['err'] = message;
      msg = message.message;
    } else if (typeof message === 'object' && message !== null) {
      const { msg: m, ...rest } = message as Record<string, unknown>;
      Object.assign(fields, redactFields(rest));
      if (m !== undefined) msg = String(m);
    } else msg = String(message);
    this.pino[level](fields, msg === undefined ? undefined : scrubSecrets(msg));
  }
}

/** pino's error serializer (type, message, stack, cause, own fields) with secrets scrubbed from the text. */
function serializeError(e: unknown): unknown {
  if (!(e instanceof Error)) return typeof e === 'string' ? scrubSecrets(e) : e;
  const s = pino.stdSerializers.err(e) as unknown as Record<string, unknown>;
  for (const k of ['message', 'stack'] as const) if (typeof s[k] === 'string') s[k] = scrubSecrets(s[k]);
  return s;
}
