/**
 * Structured logs: one JSON object per line on stdout (stderr for errors), with a level, the
 * time, a message and fields. Small on purpose; any log shipper reads JSON lines.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
type Fields = Record<string, unknown>;

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  child(fields: Fields): Logger;
}

function serialise(value: unknown): unknown {
  if (value instanceof Error)
    return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

export function createLogger(level: LogLevel = 'info', base: Fields = {}): Logger {
  const write = (at: Exclude<LogLevel, 'silent'>, msg: string, fields?: Fields) => {
    if (ORDER[at] < ORDER[level]) return;
    const entry: Fields = { level: at, time: new Date().toISOString(), msg, ...base };
    for (const [key, value] of Object.entries(fields ?? {})) entry[key] = serialise(value);
    const line = `${JSON.stringify(entry)}\n`;
    if (at === 'error') process.stderr.write(line);
    else process.stdout.write(line);
  };
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
    child: (fields) => createLogger(level, { ...base, ...fields }),
  };
}
