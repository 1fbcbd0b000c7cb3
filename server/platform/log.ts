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

/** Fields of a database error worth a log line (node-postgres and PGlite name them alike). */
const DATABASE_FIELDS = ['code', 'detail', 'hint', 'constraint', 'table', 'column', 'where'];

/**
 * An error as JSON, with its cause chain: drizzle wraps the database's error (which says
 * what actually went wrong: its SQLSTATE code, detail, constraint) in `cause`.
 */
function serialise(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const out: Record<string, unknown> = { name: value.name, message: value.message };
  for (const field of DATABASE_FIELDS) {
    const found = (value as unknown as Record<string, unknown>)[field];
    if (typeof found === 'string' && found !== '') out[field] = found;
  }
  if (value.cause !== undefined && depth < 5) out.cause = serialise(value.cause, depth + 1);
  out.stack = value.stack;
  return out;
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

/** Warnings and errors logged so far, by level (for GET /metrics), whatever LOG_LEVEL shows. */
export interface LogCounts {
  warn: number;
  error: number;
}

/** The same logger, counting its warnings and errors (and its children's) into `counts`. */
export function countingLogger(log: Logger, counts: LogCounts): Logger {
  return {
    debug: log.debug,
    info: log.info,
    warn(msg, fields) {
      counts.warn += 1;
      log.warn(msg, fields);
    },
    error(msg, fields) {
      counts.error += 1;
      log.error(msg, fields);
    },
    child: (fields) => countingLogger(log.child(fields), counts),
  };
}
