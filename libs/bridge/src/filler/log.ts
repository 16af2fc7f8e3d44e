/**
 * Structured log lines of the filler: one JSON object per line, the same shape as the apps'
 * JsonLogger (time, level, service, msg, fields). bigint fields are written as strings.
 */
export type FillerLogLevel = 'debug' | 'info' | 'warn' | 'error';

export type FillerLog = (level: FillerLogLevel, msg: string, fields?: Record<string, unknown>) => void;

const ORDER: Record<FillerLogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function jsonFillerLog(minLevel: FillerLogLevel = 'info', write: (line: string, level: FillerLogLevel) => void = defaultWrite): FillerLog {
  return (level, msg, fields) => {
    if (ORDER[level] < ORDER[minLevel]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, service: 'filler', msg, ...fields }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)), level);
  };
}

function defaultWrite(line: string, level: FillerLogLevel): void {
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
}
